"""Packaging beyond what pyproject.toml can say: the repository's top-level ``configs/`` and
``workloads/`` folders ship inside the wheel as ``hespas_py/configs`` and ``hespas_py/workloads``
(found at run time by `hespas_py.resources.shipped`), beside ``hespas_py/data``. Each of their
folders is a data-only package, so setuptools copies every file in it."""

from setuptools import find_namespace_packages, find_packages, setup

SHIPPED_FOLDERS = {"hespas_py.configs": "configs", "hespas_py.workloads": "workloads"}
DATA_PACKAGES = ["hespas_py.data"] + [f"{package}{'.' + sub if sub else ''}"
                                       for package, folder in SHIPPED_FOLDERS.items()
                                       for sub in ["", *find_namespace_packages(where=folder)]]

setup(
    packages=find_packages(include=["hespas_py", "hespas_py.*"]) + DATA_PACKAGES,
    package_dir=SHIPPED_FOLDERS,
    package_data={package: ["*"] for package in DATA_PACKAGES},
)
