"""The accelerator a run models: `Hardware`, its parameter registry (`params`), the published
tool's config format (`config`) and the node presets (`presets`).

The lowest stage: estimators, kernel planning, the memory analysis and the traces read a
`Hardware`; this package imports no stage.
"""

from hespas_py.hardware.config import parse_params, read_config, validate_config
from hespas_py.hardware.params import SPECS, Hardware, Params, Spec
from hespas_py.hardware.presets import (
                                        PRESETS_DIR,
                                        NodePreset,
                                        find_preset,
                                        hardware_from_config,
                                        load_hardware,
                                        preset_names,
)

__all__ = ["PRESETS_DIR", "SPECS", "Hardware", "NodePreset", "Params", "Spec", "find_preset",
           "hardware_from_config", "load_hardware", "parse_params", "preset_names", "read_config",
           "validate_config"]
