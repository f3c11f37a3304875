"""Packaging beyond what pyproject.toml can say: the repository's top-level ``configs/`` and
``workloads/`` folders ship inside the wheel as ``hespas_py/configs`` and ``hespas_py/workloads``
(found at run time by `hespas_py.resources.shipped`)."""

from setuptools import find_packages, setup

SHIPPED_FOLDERS = {"hespas_py.configs": "configs", "hespas_py.workloads": "workloads"}

setup(
    packages=find_packages(include=["hespas_py", "hespas_py.*"]) + list(SHIPPED_FOLDERS),
    package_dir=SHIPPED_FOLDERS,
    package_data={"hespas_py": ["data/*"], "hespas_py.configs": ["**/*"],
                  "hespas_py.workloads": ["*.mlir", "*.mlir.gz", "README.md"]},
)
