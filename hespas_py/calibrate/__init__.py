"""``hespas calibrate``: microbenchmarks of the kernel classes the compute model uses, run on
the local JAX devices, turned into a node preset (and a system preset of the local devices).

One module per kind (`run.KINDS`): `launch` (kernel launch inside and across command buffers,
per-call host dispatch), `streams` (memory rate), `gemms` (tensor rates per type and precision,
skinny shapes), `convolutions` (channel classes, depthwise), `rows` (Triton row kernels),
`elementwise` (transcendental and elementwise cost per element), `collectives` (with several
local devices). `timing` times a compiled program without the known traps; `model` inverts the
fused roofline's kernel time into a param; `preset` writes the files; `run` drives it all.
Rationale and the traps of each kind: docs/calibration.md.
"""
