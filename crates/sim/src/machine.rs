//! The hardware and OS of the simulated machine, as data, with the built-in presets.
//!
//! Every number a GPU tool prints comes from here, so a preset is one place to read what a
//! Vega 64 or an MI300X "is". Values marked in the facts sheet (`rocm-facts.md`) are used as
//! they are; the rest (serials, temperatures, clocks of an idle card) are plausible values of
//! the same shape as real output.

use serde::{Deserialize, Serialize};

/// The hardware and OS of a simulated machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Its host name.
    pub hostname: String,
    /// Its Ubuntu release.
    pub os: Os,
    /// `uname -r`.
    pub kernel: String,
    /// Its CPU.
    pub cpu: Cpu,
    /// Its AMD GPUs.
    pub gpus: Vec<Gpu>,
    /// lspci lines of the devices that are not AMD GPUs: (slot, class, class code, vendor:device, text).
    pub other_pci: Vec<PciDevice>,
    /// Whether the machine has a BMC display (ASPEED): it owns card0 and is the only "VGA" line.
    pub bmc_vga: bool,
    /// Modules loaded on every boot regardless of amdgpu (name, size, used-by count, holders).
    pub base_modules: Vec<Module>,
}

/// An Ubuntu release as /etc/os-release names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Os {
    /// `ID` in os-release (`ubuntu`).
    pub id: String,
    /// `VERSION_ID` (`24.04`).
    pub version_id: String,
    /// `VERSION` (`24.04.1 LTS (Noble Numbat)`).
    pub version: String,
    /// `VERSION_CODENAME` (`noble`).
    pub codename: String,
    /// `PRETTY_NAME`.
    pub pretty: String,
}

impl Os {
    /// Ubuntu 24.04 LTS (noble).
    pub fn ubuntu_2404() -> Self {
        Os {
            id: "ubuntu".into(),
            version_id: "24.04".into(),
            version: "24.04.1 LTS (Noble Numbat)".into(),
            codename: "noble".into(),
            pretty: "Ubuntu 24.04.1 LTS".into(),
        }
    }

    /// Ubuntu 22.04 LTS (jammy).
    pub fn ubuntu_2204() -> Self {
        Os {
            id: "ubuntu".into(),
            version_id: "22.04".into(),
            version: "22.04.5 LTS (Jammy Jellyfish)".into(),
            codename: "jammy".into(),
            pretty: "Ubuntu 22.04.5 LTS".into(),
        }
    }

    /// The text of /etc/os-release, in Ubuntu's order.
    pub fn os_release(&self) -> String {
        let name = if self.id == "ubuntu" {
            "Ubuntu"
        } else {
            &self.id
        };
        format!(
            "PRETTY_NAME=\"{}\"\nNAME=\"{name}\"\nVERSION_ID=\"{}\"\nVERSION=\"{}\"\nVERSION_CODENAME={}\nID={}\nID_LIKE=debian\nHOME_URL=\"https://www.ubuntu.com/\"\nSUPPORT_URL=\"https://help.ubuntu.com/\"\nBUG_REPORT_URL=\"https://bugs.launchpad.net/ubuntu/\"\nPRIVACY_POLICY_URL=\"https://www.ubuntu.com/legal/terms-and-policies/privacy-policy\"\nUBUNTU_CODENAME={}\n",
            self.pretty, self.version_id, self.version, self.codename, self.id, self.codename
        )
    }
}

/// The CPU, as rocminfo's CPU agent shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cpu {
    /// Its marketing name.
    pub name: String,
    /// Logical CPUs (rocminfo's "Compute Unit" of the CPU agent).
    pub threads: u32,
    /// Its highest clock.
    pub max_clock_mhz: u32,
    /// System memory in KB (the CPU agent's pool size).
    pub memory_kb: u64,
}

/// One PCI function, as lspci shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PciDevice {
    /// `43:00.0`.
    pub slot: String,
    /// `VGA compatible controller`.
    pub class: String,
    /// `0300`.
    pub class_code: String,
    /// `1002:687f`.
    pub ids: String,
    /// Vendor and device text as lspci prints it.
    pub text: String,
    /// `c1`, printed as ` (rev c1)`.
    #[serde(default)]
    pub rev: Option<String>,
    /// The subsystem line, if any.
    #[serde(default)]
    pub subsystem: Option<String>,
    /// The driver in use, if any.
    #[serde(default)]
    pub driver: Option<String>,
}

/// A loaded kernel module, as lsmod shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Module {
    /// Its name.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// How many use it.
    pub used: u32,
    /// The modules that use it.
    #[serde(default)]
    pub holders: Vec<String>,
}

impl Module {
    /// A module with these lsmod columns.
    pub fn new(name: &str, size: u64, used: u32, holders: &[&str]) -> Self {
        Module {
            name: name.into(),
            size,
            used,
            holders: holders.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// One AMD GPU: its PCI identity, its rocminfo agent, its rocm-smi row and amd-smi entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gpu {
    /// Its PCI function.
    pub pci: PciDevice,
    /// Extra PCI functions of the card (the HDMI audio of a Radeon).
    #[serde(default)]
    pub pci_functions: Vec<PciDevice>,
    /// `gfx900`.
    pub gfx: String,
    /// Its marketing name (`Radeon RX Vega`).
    pub marketing_name: String,
    /// rocminfo's agent UUID.
    pub uuid: String,
    /// L1 cache size.
    pub l1_kb: u64,
    /// L2 cache size.
    pub l2_kb: u64,
    /// L3 cache size, where it has one.
    #[serde(default)]
    pub l3_kb: Option<u64>,
    /// PCI device id, rocminfo's "Chip ID".
    pub chip_id: u32,
    /// ASIC revision.
    pub asic_revision: u32,
    /// Cache line size in bytes.
    pub cacheline: u32,
    /// Highest clock.
    pub max_clock_mhz: u32,
    /// Compute units.
    pub compute_units: u32,
    /// SIMDs per compute unit.
    pub simds_per_cu: u32,
    /// Shader engines.
    pub shader_engines: u32,
    /// Most waves per compute unit.
    pub max_waves_per_cu: u32,
    /// VRAM size.
    pub vram_kb: u64,
    /// ISA names, first the exact target then the generic one.
    pub isas: Vec<String>,
    /// Power-play firmware version.
    pub pp_ucode: u32,
    /// SDMA firmware version.
    pub sdma_ucode: u32,
    /// KFD gpu_id: rocm-smi's GUID column and amd-smi's KFD_ID.
    pub kfd_id: u32,
    /// Full BDF for amd-smi (`0000:43:00.0`).
    pub bdf: String,
    /// amd-smi's UUID.
    pub amd_smi_uuid: String,
    /// Its rocm-smi row.
    pub smi: SmiRow,
    /// DRM minor of the card node (`card0` = 0); the render node is 128 + index.
    pub card_minor: u32,
    /// Minor number of /dev/dri/renderD*.
    pub render_minor: u32,
    /// PCI subsystem id, as amd-smi shows it.
    pub subsystem_id: String,
    /// Slot type (`PCIE`, `OAM`).
    pub slot_type: String,
    /// PCIe link speed as amd-smi prints it.
    pub pcie_speed: String,
    /// PCIe generation as amd-smi prints it.
    pub pcie_gen: String,
    /// Node-labeller values.
    pub family: String,
    /// Product name on the label.
    pub product_label: String,
    /// VRAM on the label.
    pub vram_label: String,
}

/// The values of one rocm-smi concise row (strings as printed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SmiRow {
    /// Temperature.
    pub temp: String,
    /// `Edge` on Radeon, `Junction` on Instinct.
    pub temp_sensor: String,
    /// Power.
    pub power: String,
    /// `Avg` on Radeon, `Socket` on Instinct.
    pub power_sensor: String,
    /// Partitions, as the row prints them.
    pub partitions: String,
    /// Shader clock.
    pub sclk: String,
    /// Memory clock.
    pub mclk: String,
    /// Fan.
    pub fan: String,
    /// Performance level.
    pub perf: String,
    /// Power cap.
    pub pwrcap: String,
    /// VRAM in use.
    pub vram_pct: String,
    /// GPU busy.
    pub gpu_pct: String,
}

/// The built-in machines a lab scenario can name with `preset = "..."`. An unknown word is a
/// parse error at its line that names the known ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Preset {
    /// RX Vega 64 (gfx900) on Ubuntu 24.04.
    #[default]
    Vega64Workstation,
    /// One to eight MI300X (gfx942) on Ubuntu 22.04.
    Mi300xServer,
    /// A Ryzen APU (gfx90c) beside an RX 6700 XT (gfx1031): "choosing the GPU".
    Rdna2Workstation,
}

impl Preset {
    /// Every preset, in the order the docs list them.
    pub const ALL: [Preset; 3] = [
        Preset::Vega64Workstation,
        Preset::Mi300xServer,
        Preset::Rdna2Workstation,
    ];

    /// The word a lab file uses.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Vega64Workstation => "vega64-workstation",
            Preset::Mi300xServer => "mi300x-server",
            Preset::Rdna2Workstation => "rdna2-workstation",
        }
    }

    /// The machine itself; `gpu_count` applies to the MI300X server (1-8).
    pub fn machine(self, gpu_count: Option<u32>) -> Machine {
        match self {
            Preset::Vega64Workstation => vega64_workstation(),
            Preset::Mi300xServer => mi300x_server(gpu_count.unwrap_or(1).clamp(1, 8)),
            Preset::Rdna2Workstation => rdna2_workstation(),
        }
    }
}

impl std::str::FromStr for Preset {
    type Err = String;

    fn from_str(word: &str) -> Result<Self, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == word)
            .ok_or_else(|| {
                let known: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
                format!("unknown preset \"{word}\" (known: {})", known.join(", "))
            })
    }
}

impl<'de> Deserialize<'de> for Preset {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        word.parse().map_err(serde::de::Error::custom)
    }
}

fn base_modules() -> Vec<Module> {
    vec![
        Module::new("tls", 155648, 0, &[]),
        Module::new("nls_iso8859_1", 12288, 1, &[]),
        Module::new("intel_rapl_msr", 20480, 0, &[]),
        Module::new("intel_rapl_common", 40960, 1, &["intel_rapl_msr"]),
        Module::new("kvm_amd", 208896, 0, &[]),
        Module::new("kvm", 1409024, 1, &["kvm_amd"]),
        Module::new("binfmt_misc", 24576, 1, &[]),
        Module::new("input_leds", 12288, 0, &[]),
        Module::new("joydev", 32768, 0, &[]),
        Module::new("sch_fq_codel", 24576, 2, &[]),
        Module::new("msr", 12288, 0, &[]),
        Module::new("efi_pstore", 12288, 0, &[]),
        Module::new("ip_tables", 32768, 0, &[]),
        Module::new("x_tables", 65536, 1, &["ip_tables"]),
        Module::new("autofs4", 57344, 2, &[]),
        Module::new("crct10dif_pclmul", 12288, 1, &[]),
        Module::new("crc32_pclmul", 12288, 0, &[]),
        Module::new("nvme", 61440, 2, &[]),
        Module::new("nvme_core", 212992, 3, &["nvme"]),
        Module::new("ahci", 49152, 0, &[]),
        Module::new("libahci", 53248, 1, &["ahci"]),
    ]
}

fn vega64_workstation() -> Machine {
    let gpu = Gpu {
        pci: PciDevice {
            slot: "43:00.0".into(),
            class: "VGA compatible controller".into(),
            class_code: "0300".into(),
            ids: "1002:687f".into(),
            text: "Advanced Micro Devices, Inc. [AMD/ATI] Vega 10 XL/XT [Radeon RX Vega 56/64]"
                .into(),
            rev: Some("c1".into()),
            subsystem: Some(
                "Advanced Micro Devices, Inc. [AMD/ATI] Vega 10 XL/XT [Radeon RX Vega 56/64]"
                    .into(),
            ),
            driver: Some("amdgpu".into()),
        },
        pci_functions: vec![PciDevice {
            slot: "43:00.1".into(),
            class: "Audio device".into(),
            class_code: "0403".into(),
            ids: "1002:aaf8".into(),
            text: "Advanced Micro Devices, Inc. [AMD/ATI] Vega 10 HDMI Audio [Radeon Vega 56/64]"
                .into(),
            rev: None,
            subsystem: Some(
                "Advanced Micro Devices, Inc. [AMD/ATI] Vega 10 HDMI Audio [Radeon Vega 56/64]"
                    .into(),
            ),
            driver: Some("snd_hda_intel".into()),
        }],
        gfx: "gfx900".into(),
        marketing_name: "Radeon RX Vega".into(),
        uuid: "GPU-0215085621863084".into(),
        l1_kb: 16,
        l2_kb: 4096,
        l3_kb: None,
        chip_id: 0x687f,
        asic_revision: 1,
        cacheline: 64,
        max_clock_mhz: 1630,
        compute_units: 64,
        simds_per_cu: 4,
        shader_engines: 4,
        max_waves_per_cu: 40,
        vram_kb: 8372224,
        isas: vec![
            "amdgcn-amd-amdhsa--gfx900:xnack-".into(),
            "amdgcn-amd-amdhsa--gfx9-generic:xnack-".into(),
        ],
        pp_ucode: 444,
        sdma_ucode: 433,
        kfd_id: 45532,
        bdf: "0000:43:00.0".into(),
        amd_smi_uuid: "f3ff687f-0000-1000-8021-5c6e2f1b8a44".into(),
        smi: SmiRow {
            temp: "31.0°C".into(),
            temp_sensor: "Edge".into(),
            power: "9.0W".into(),
            power_sensor: "Avg".into(),
            partitions: "N/A, N/A, 0".into(),
            sclk: "852Mhz".into(),
            mclk: "167Mhz".into(),
            fan: "14.9%".into(),
            perf: "auto".into(),
            pwrcap: "220.0W".into(),
            vram_pct: "0%".into(),
            gpu_pct: "0%".into(),
        },
        card_minor: 0,
        render_minor: 128,
        subsystem_id: "0x0b36".into(),
        slot_type: "PCIE".into(),
        pcie_speed: "8 GT/s".into(),
        pcie_gen: "Gen 3".into(),
        family: "AI".into(),
        product_label: "Radeon_RX_Vega".into(),
        vram_label: "8G".into(),
    };
    Machine {
        hostname: "vega-ws".into(),
        os: Os::ubuntu_2404(),
        kernel: "6.8.0-52-generic".into(),
        cpu: Cpu {
            name: "AMD Ryzen 7 2700X Eight-Core Processor".into(),
            threads: 16,
            max_clock_mhz: 3700,
            memory_kb: 32794524,
        },
        gpus: vec![gpu],
        other_pci: vec![
            pci(
                "00:00.0",
                "Host bridge",
                "0600",
                "1022:1450",
                "Advanced Micro Devices, Inc. [AMD] Family 17h (Models 00h-0fh) Root Complex",
                None,
            ),
            pci(
                "00:01.0",
                "Host bridge",
                "0600",
                "1022:1452",
                "Advanced Micro Devices, Inc. [AMD] Family 17h (Models 00h-1fh) PCIe Dummy Host Bridge",
                None,
            ),
            pci(
                "00:14.0",
                "SMBus",
                "0c05",
                "1022:790b",
                "Advanced Micro Devices, Inc. [AMD] FCH SMBus Controller",
                Some("59"),
            ),
            pci(
                "01:00.0",
                "Non-Volatile memory controller",
                "0108",
                "144d:a808",
                "Samsung Electronics Co Ltd NVMe SSD Controller SM981/PM981/PM983",
                None,
            ),
            pci(
                "03:00.0",
                "USB controller",
                "0c03",
                "1022:43d0",
                "Advanced Micro Devices, Inc. [AMD] X470 Chipset USB 3.1 xHCI Controller",
                Some("01"),
            ),
            pci(
                "03:00.1",
                "SATA controller",
                "0106",
                "1022:43c8",
                "Advanced Micro Devices, Inc. [AMD] X470 Chipset SATA Controller",
                Some("01"),
            ),
            pci(
                "26:00.0",
                "Ethernet controller",
                "0200",
                "8086:1539",
                "Intel Corporation I211 Gigabit Network Connection",
                Some("03"),
            ),
        ],
        bmc_vga: false,
        base_modules: base_modules(),
    }
}

/// Slots of the eight OAM modules of a typical MI300X platform.
const MI300X_SLOTS: [&str; 8] = ["1b", "3d", "4e", "5f", "9d", "bd", "cd", "dd"];
const MI300X_KFD_IDS: [u32; 8] = [21947, 48705, 30263, 11893, 56024, 40362, 15579, 64791];

fn mi300x(i: usize) -> Gpu {
    let bus = MI300X_SLOTS[i];
    let slot = format!("{bus}:00.0");
    Gpu {
        pci: PciDevice {
            slot: slot.clone(),
            class: "Processing accelerators".into(),
            class_code: "1200".into(),
            ids: "1002:74a1".into(),
            text: "Advanced Micro Devices, Inc. [AMD/ATI] Aqua Vanjaram [Instinct MI300X]".into(),
            rev: None,
            subsystem: Some(
                "Advanced Micro Devices, Inc. [AMD/ATI] Aqua Vanjaram [Instinct MI300X]".into(),
            ),
            driver: Some("amdgpu".into()),
        },
        pci_functions: vec![],
        gfx: "gfx942".into(),
        marketing_name: "AMD Instinct MI300X".into(),
        uuid: format!("GPU-{:016x}", 0x72be_95cb_49b2_7a64u64 + i as u64 * 0x1111),
        l1_kb: 32,
        l2_kb: 4096,
        l3_kb: Some(262144),
        chip_id: 0x74a1,
        asic_revision: 1,
        cacheline: 128,
        max_clock_mhz: 2100,
        compute_units: 304,
        simds_per_cu: 4,
        shader_engines: 32,
        max_waves_per_cu: 32,
        vram_kb: 201310208,
        isas: vec![
            "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-".into(),
            "amdgcn-amd-amdhsa--gfx9-4-generic:sramecc+:xnack-".into(),
        ],
        pp_ucode: 189,
        sdma_ucode: 24,
        kfd_id: MI300X_KFD_IDS[i],
        bdf: format!("0000:{slot}"),
        amd_smi_uuid: format!("{:02x}ff74a1-0000-1000-80c1-fb66fcc143d2", 0x89 + i),
        smi: SmiRow {
            temp: "39.0°C".into(),
            temp_sensor: "Junction".into(),
            power: "191.0W".into(),
            power_sensor: "Socket".into(),
            partitions: "NPS1, SPX, 0".into(),
            sclk: "2105Mhz".into(),
            mclk: "900Mhz".into(),
            fan: "0%".into(),
            perf: "auto".into(),
            pwrcap: "750.0W".into(),
            vram_pct: "0%".into(),
            gpu_pct: "0%".into(),
        },
        // card0 belongs to the BMC's ASPEED display.
        card_minor: 1 + i as u32,
        render_minor: 128 + i as u32,
        subsystem_id: "0x74a1".into(),
        slot_type: "OAM".into(),
        pcie_speed: "32 GT/s".into(),
        pcie_gen: "Gen 5".into(),
        family: "AI".into(),
        product_label: "AMD_Instinct_MI300X_OAM".into(),
        vram_label: "192G".into(),
    }
}

fn mi300x_server(count: u32) -> Machine {
    Machine {
        hostname: "mi300x-node".into(),
        os: Os::ubuntu_2204(),
        kernel: "5.15.0-125-generic".into(),
        cpu: Cpu {
            name: "AMD EPYC 9654 96-Core Processor".into(),
            threads: 192,
            max_clock_mhz: 3707,
            memory_kb: 1584834540,
        },
        gpus: (0..count as usize).map(mi300x).collect(),
        other_pci: vec![
            pci(
                "00:00.0",
                "Host bridge",
                "0600",
                "1022:14a4",
                "Advanced Micro Devices, Inc. [AMD] Device 14a4",
                Some("01"),
            ),
            pci(
                "02:00.0",
                "VGA compatible controller",
                "0300",
                "1a03:2000",
                "ASPEED Technology, Inc. ASPEED Graphics Family",
                Some("52"),
            ),
            pci(
                "41:00.0",
                "Ethernet controller",
                "0200",
                "15b3:1021",
                "Mellanox Technologies MT2910 Family [ConnectX-7]",
                None,
            ),
            pci(
                "c1:00.0",
                "Non-Volatile memory controller",
                "0108",
                "144d:a80c",
                "Samsung Electronics Co Ltd NVMe SSD Controller S4LV008[Pascal]",
                None,
            ),
        ],
        bmc_vga: true,
        base_modules: {
            let mut m = base_modules();
            m.insert(0, Module::new("ast", 102400, 0, &[]));
            m
        },
    }
}

fn pci(slot: &str, class: &str, code: &str, ids: &str, text: &str, rev: Option<&str>) -> PciDevice {
    PciDevice {
        slot: slot.into(),
        class: class.into(),
        class_code: code.into(),
        ids: ids.into(),
        text: text.into(),
        rev: rev.map(String::from),
        subsystem: None,
        driver: None,
    }
}

/// A desktop with a Ryzen 5 5600G, whose integrated GPU (Cezanne, gfx90c) the driver enumerates,
/// and a Radeon RX 6700 XT (Navi 22, gfx1031): the machine of "choosing the GPU". The integrated
/// GPU sits on the lower bus (07:00.0, where Cezanne's iGPU appears in real kernel logs), so it
/// is enumerated first: device 0. Both report `Uuid: GPU-XX`, as consumer Radeons do.
fn rdna2_workstation() -> Machine {
    let smi = |temp: &str, power: &str, cap: &str| SmiRow {
        temp: temp.into(),
        temp_sensor: "Edge".into(),
        power: power.into(),
        power_sensor: "Avg".into(),
        partitions: "N/A, N/A, 0".into(),
        sclk: "0Mhz".into(),
        mclk: "96Mhz".into(),
        fan: "0%".into(),
        perf: "auto".into(),
        pwrcap: cap.into(),
        vram_pct: "0%".into(),
        gpu_pct: "0%".into(),
    };
    let igpu = Gpu {
        pci: PciDevice {
            slot: "07:00.0".into(),
            class: "VGA compatible controller".into(),
            class_code: "0300".into(),
            ids: "1002:1638".into(),
            text: "Advanced Micro Devices, Inc. [AMD/ATI] Cezanne [Radeon Vega Series / Radeon Vega Mobile Series]".into(),
            rev: Some("c9".into()),
            subsystem: Some("ASUSTeK Computer Inc. Device 8809".into()),
            driver: Some("amdgpu".into()),
        },
        pci_functions: vec![],
        gfx: "gfx90c".into(),
        marketing_name: "AMD Radeon Graphics".into(),
        uuid: "GPU-XX".into(),
        l1_kb: 16,
        l2_kb: 1024,
        l3_kb: None,
        chip_id: 0x1638,
        asic_revision: 0,
        cacheline: 64,
        max_clock_mhz: 1900,
        compute_units: 7,
        simds_per_cu: 4,
        shader_engines: 1,
        max_waves_per_cu: 40,
        vram_kb: 524288,
        isas: vec![
            "amdgcn-amd-amdhsa--gfx90c:xnack-".into(),
            "amdgcn-amd-amdhsa--gfx9-generic:xnack-".into(),
        ],
        pp_ucode: 0,
        sdma_ucode: 40,
        kfd_id: 33516,
        bdf: "0000:07:00.0".into(),
        amd_smi_uuid: "a0ff1638-0000-1000-8000-000000000000".into(),
        smi: smi("38.0°C", "3.0W", "Unsupported"),
        card_minor: 0,
        render_minor: 128,
        subsystem_id: "0x8809".into(),
        slot_type: "PCIE".into(),
        pcie_speed: "8 GT/s".into(),
        pcie_gen: "Gen 3".into(),
        family: "AI".into(),
        product_label: "AMD_Radeon_Graphics".into(),
        vram_label: "512M".into(),
    };
    let dgpu = Gpu {
        pci: PciDevice {
            slot: "0c:00.0".into(),
            class: "VGA compatible controller".into(),
            class_code: "0300".into(),
            ids: "1002:73df".into(),
            text: "Advanced Micro Devices, Inc. [AMD/ATI] Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]".into(),
            rev: Some("c1".into()),
            subsystem: Some("Sapphire Technology Limited Device e445".into()),
            driver: Some("amdgpu".into()),
        },
        pci_functions: vec![PciDevice {
            slot: "0c:00.1".into(),
            class: "Audio device".into(),
            class_code: "0403".into(),
            ids: "1002:ab28".into(),
            text: "Advanced Micro Devices, Inc. [AMD/ATI] Navi 21/23 HDMI/DP Audio Controller".into(),
            rev: None,
            subsystem: Some("Advanced Micro Devices, Inc. [AMD/ATI] Navi 21/23 HDMI/DP Audio Controller".into()),
            driver: Some("snd_hda_intel".into()),
        }],
        gfx: "gfx1031".into(),
        marketing_name: "AMD Radeon RX 6700 XT".into(),
        uuid: "GPU-XX".into(),
        l1_kb: 16,
        l2_kb: 3072,
        l3_kb: Some(98304),
        chip_id: 0x73df,
        asic_revision: 0,
        cacheline: 128,
        max_clock_mhz: 2855,
        compute_units: 40,
        simds_per_cu: 2,
        shader_engines: 2,
        max_waves_per_cu: 32,
        vram_kb: 12566528,
        isas: vec![
            "amdgcn-amd-amdhsa--gfx1031".into(),
            "amdgcn-amd-amdhsa--gfx10-3-generic".into(),
        ],
        pp_ucode: 0,
        sdma_ucode: 83,
        kfd_id: 64289,
        bdf: "0000:0c:00.0".into(),
        amd_smi_uuid: "7cff73df-0000-1000-8000-000000000000".into(),
        smi: smi("41.0°C", "7.0W", "186.0W"),
        card_minor: 1,
        render_minor: 129,
        subsystem_id: "0xe445".into(),
        slot_type: "PCIE".into(),
        pcie_speed: "16 GT/s".into(),
        pcie_gen: "Gen 4".into(),
        family: "AI".into(),
        product_label: "AMD_Radeon_RX_6700_XT".into(),
        vram_label: "12G".into(),
    };
    let mut m = vega64_workstation();
    m.hostname = "rdna2-ws".into();
    m.cpu = Cpu {
        name: "AMD Ryzen 5 5600G with Radeon Graphics".into(),
        threads: 12,
        max_clock_mhz: 4464,
        memory_kb: 32787812,
    };
    m.gpus = vec![igpu, dgpu];
    m
}
