"""The sourced link figures the machine presets are built of (scripts/make_system_presets.py).

Every link carries its line rate as its source quotes it and, where NCCL's own model or its
maintainers publish one, the share of it that collectives reach (configs/systems/README.md,
"Achievable bandwidth"); a network dimension runs at the product.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Bytes per second in one GB/s of network.yml: ASTRA-sim's GB is 2**30 bytes, the vendors' 1e9.
ASTRA_GB = float(1 << 30)


@dataclass(frozen=True)
class Achieved:
    """The share of a link's line rate that NCCL's ring collectives reach as bus bandwidth
    (README "Achievable bandwidth").

    Attributes:
        share: bus bandwidth over line rate.
        quoted: the figures as their source states them.
        source: the public document they come from.
    """

    share: float
    quoted: str
    source: str


#: Links without a published achieved rate (TPU ICI, Infinity Fabric) run at their line rate.
LINE_RATE = Achieved(1.0, "no published achieved rate: the line rate", "")


@dataclass(frozen=True)
class Link:
    """A sourced link rate.

    Attributes:
        gbps: line rate in GB/s (1e9 bytes) per link and direction.
        quoted: the figure as its source states it.
        source: the public document it comes from.
        achieved: the share of it collectives reach.
    """

    gbps: float
    quoted: str
    source: str
    achieved: Achieved = LINE_RATE

    @property
    def rate(self) -> float:
        """GB/s per direction a collective moves over the link: its network dimension's rate."""
        return self.gbps * self.achieved.share


# What NCCL's ring algorithms reach per NVLink, by generation: its topology model's per-link rate
# (NVIDIA/nccl src/graph/topo.h, SM80/SM90/SM100_NVLINK_BW) over the link's 25 or 50 GB/s.
NVLINK3_NCCL = Achieved(20.0 / 25.0, "20.0 of 25 GB/s per NVLink3 (SM80_NVLINK_BW); an A800's 8 "
                        "links: '~160GB/s intra-node' bus bandwidth",
                        "NVIDIA/nccl src/graph/topo.h; NVIDIA/nccl issue 412 (maintainer)")
NVLINK4_NCCL = Achieved(20.6 / 25.0, "20.6 of 25 GB/s per NVLink4 (SM90_NVLINK_BW), 370.8 of 450 "
                        "GB/s per H100: 'NCCL can get an effective NVLink bandwidth of 370GB/s' "
                        "(ring; all-gather, reduce-scatter)",
                        "NVIDIA/nccl src/graph/topo.h; NVIDIA/nccl-tests issue 212 (maintainer)")
NVLINK5_NCCL = Achieved(40.1 / 50.0, "40.1 of 50 GB/s per NVLink5 (SM100_NVLINK_BW)",
                        "NVIDIA/nccl src/graph/topo.h")
# What NCCL reaches per NIC: 96% of the line rate.
NIC_NCCL = Achieved(0.96, "'24GB/s is the peak performance per 200G NIC (12 GB/s for 100G NICs)'; "
                    "'For NDR @ 400Gbps you should see 46-48GB/s per NIC' (IB or RoCE); NET_BW "
                    "12.0 for 100 Gbit", "NVIDIA/nccl-tests issues 119 and 290 (maintainers); "
                    "NVIDIA/nccl src/graph/topo.h")

NVLINK3_BOARD = Link(100.0, "A100: 12 NVLink3 links, 600 GB/s bidirectional; HGX A100 4-GPU: 4 "
                     "links per GPU pair = 4 x 25 GB/s",
                     "NVIDIA A100 datasheet (as Hespas' preset)", NVLINK3_NCCL)
NVLINK3_SWITCH = Link(300.0, "600 GB/s bidirectional per GPU (NVSwitch gen 2)",
                      "NVIDIA DGX A100 datasheet", NVLINK3_NCCL)
NVLINK4_BOARD = Link(150.0, "18 NVLink4 links, 900 GB/s bidirectional; 4-GPU board: 6 links per "
                     "pair = 6 x 25 GB/s", "NVIDIA H100 / H200 datasheets", NVLINK4_NCCL)
NVLINK4_SWITCH = Link(450.0, "900 GB/s bidirectional per GPU (NVSwitch gen 3)",
                      "NVIDIA DGX H100 datasheet; HGX H200 (H200 datasheet)", NVLINK4_NCCL)
NVLINK5_BOARD = Link(300.0, "18 NVLink5 links, 1.8 TB/s bidirectional; 6 links per pair = "
                     "6 x 50 GB/s", "NVIDIA Blackwell (HGX B200) datasheet", NVLINK5_NCCL)
NVLINK5_SWITCH = Link(900.0, "1.8 TB/s bidirectional per GPU (NVLink 5 switch)",
                      "NVIDIA DGX B200 datasheet", NVLINK5_NCCL)
HDR_NIC = Link(25.0, "8 x ConnectX-6 200 Gb/s HDR InfiniBand, one per GPU",
               "NVIDIA DGX A100 datasheet", NIC_NCCL)
NDR_NIC = Link(50.0, "8 x single-port ConnectX-7 400 Gb/s NDR InfiniBand (or 400GbE), one per "
               "GPU", "NVIDIA DGX H100/H200 and DGX B200 user guides; DGX BasePOD RA, "
               "'Core Components'", NIC_NCCL)

INFINITY_FABRIC = Link(64.0, "7 Infinity Fabric links of 128 GB/s peak bidirectional, one per peer",
                       "AMD Instinct MI300X data sheet")
TPUV3_ICI = Link(80.0 * ASTRA_GB / 1e9, "80 GB/s of ASTRA-sim's 2^30 bytes, 1000 ns (a v3-8's 8 "
                 "TensorCores; v3-32 as a 4 x 8 2-D torus)",
                 "ASTRA-sim inputs/network/tpu_v3_8.yml and tpu_v3_32_2dtorus.yml")
TPUV4_ICI = Link(50.0, "6 ICI links per chip, 400 Gb/s per link and direction; bisection 24 TB/s "
                 "per 16x16x16 pod = 47 GB/s per link (How to Scale Your Model, ch. 'TPUs': "
                 "45 GB/s one-way)", "Jouppi et al., 'TPU v4', ISCA 2023; Cloud TPU docs, 'TPU v4'")
TPUV5P_ICI = Link(100.0, "1200 GBps bidirectional ICI per chip over 6 links", "Cloud TPU docs, "
                  "'TPU v5p'; How to Scale Your Model, ch. 'TPUs': 1e11 B/s one-way per link")
TPUV6E_ICI = Link(100.0, "800 GBps bidirectional ICI per chip over 4 ports (bisection 3.2 TB/s "
                  "per 16x16 pod)", "Cloud TPU docs, 'TPU v6e'; How to Scale Your Model, ch. "
                  "'TPUs': 1e11 B/s one-way per link")
TPU7X_ICI = Link(100.0, "1200 GBps bidirectional ICI per chip over 6 links (3-D torus, 4x4x4 "
                 "cubes)", "Cloud TPU docs, 'TPU7x (Ironwood)'")
TPU7X_D2D = Link(600.0, "die-to-die link between the two chiplets ~6x a 1-D ICI link "
                 "(assumed 6 x 100 GB/s; not in the retrieved spec table)",
                 "Cloud TPU docs, 'TPU7x (Ironwood)', dual-chiplet architecture")

# Meta's RoCE cluster of the Llama 3 report ("The Llama 3 Herd of Models", 2024, §3.3.1
# "Network"): 400 Gb/s RoCE per GPU, a three-layer Clos of 24K GPUs. Per rack, two 8-GPU servers
# under one Minipack2 ToR switch; 192 racks (3,072 GPUs) per pod under cluster switches at full
# bisection; 8 pods under aggregation switches at 1:7 oversubscription.
META_ROCE = Link(50.0, "400 Gbps RoCE per GPU (each of a server's 8 GPUs its own NIC)",
                 "Llama 3 report, §3.3.1 'Network'", NIC_NCCL)
META_AGGREGATION = Link(50.0 / 7, "400 Gbps per GPU below the aggregation layer, oversubscribed "
                        "1:7 across pods", "Llama 3 report, §3.3.1 'Network'", NIC_NCCL)
