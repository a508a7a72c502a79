//! Magic bitboards for the sliding pieces: a Rook's (Bishop's) attacks on an occupied
//! board are one multiply, one shift and one table load, instead of four rays each found
//! with a bit scan. The evaluation computes the attacks of every slider at every leaf, so
//! this is most of its cost.
//!
//! For each square, the squares that can block (the rays without their last square, the
//! "relevant" mask) are multiplied by a magic number whose top bits then index that
//! square's slice of a shared table ("fancy" magics, one slice of 2^bits entries per
//! square). The magics were found by a random search (a few seconds) and are fixed here;
//! the tables are filled at compile time, and filling them fails the build if a magic
//! ever maps two occupancies with different attacks to one entry.
//!
//! Attack sets match [`super::bitboard`]'s rays: each ray stops at, and includes, the first
//! occupied square; the origin is never included.

/// Rook magics, by square index.
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x2080_0020_8040_0010, 0x00c0_0020_0140_1000, 0x2100_1100_0840_2002, 0x0880_0800_8104_1000,
    0x0200_0200_2004_1008, 0x2300_0400_0801_0012, 0x0c00_2830_0400_8201, 0x0180_0100_0040_7a80,
    0x0168_8000_8040_0020, 0x0010_4000_4020_1000, 0x1001_0020_0100_1048, 0x1001_0024_0810_0100,
    0x0801_0004_0801_0012, 0x4001_0002_0900_0400, 0x08a2_0004_c802_0001, 0x2002_8011_4500_2280,
    0x0080_8600_2100_4200, 0x0010_00c0_0940_2002, 0x00b0_0020_0400_2800, 0x100a_8080_1002_0800,
    0x8101_0100_0800_0410, 0x0244_0080_0200_0480, 0x0000_0400_1081_0208, 0x2000_0200_0044_8534,
    0x4104_4004_8000_8033, 0x0000_8101_0020_4000, 0x0440_4309_0020_0010, 0x4600_2409_0010_0100,
    0x0060_0800_8004_0080, 0x0001_0003_0008_0400, 0x0004_0844_0001_1002, 0x0023_0402_0000_8041,
    0x0580_0500_4300_2080, 0x0400_8040_0280_2008, 0x0001_0020_0100_4010, 0x1000_2009_0100_1000,
    0x4410_8008_0180_0c00, 0xa012_0038_0600_1004, 0x0020_1001_0400_8802, 0x0004_8084_0200_0041,
    0x0010_4001_7089_8000, 0x0080_5000_2000_4004, 0x1040_4080_1202_0020, 0x8010_0400_0800_4040,
    0x2001_0801_0011_0004, 0x0000_0200_0400_8080, 0x0021_0108_1004_0002, 0x0800_008c_4302_0024,
    0x0000_8000_2100_5100, 0x0070_2010_4000_8080, 0x0000_d042_8200_6a00, 0x0010_0144_0008_0240,
    0x0001_0801_1005_0100, 0x0012_0008_1024_0600, 0x0402_0008_0104_0200, 0x0281_0010_8a00_4100,
    0x0050_8003_0010_2045, 0x8208_2100_4012_0882, 0x8010_6001_0118_3441, 0x020b_0009_1000_6045,
    0x0241_0010_0248_0005, 0x0081_0004_0088_0241, 0x0000_0090_0802_4124, 0x0048_1229_8041_0402,
];

/// Bishop magics, by square index.
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0x0848_0208_2204_0013, 0x8010_a400_8582_1200, 0x0008_0084_3084_0822, 0x0808_0481_0804_0000,
    0x1304_0421_0000_8104, 0x5001_0120_1020_4023, 0x8104_8801_b820_0420, 0x200a_0080_8401_2000,
    0x0040_1020_0104_2084, 0x840a_5050_4242_8020, 0x0000_7001_0220_2920, 0x4410_1c0c_1080_0002,
    0x0040_0404_2200_0000, 0x0180_0208_0209_0202, 0x4020_0208_1104_1202, 0x0001_0430_8c04_2000,
    0x4140_6610_0242_4400, 0x0028_0120_0801_0460, 0x0188_0621_0200_2a00, 0x0014_0048_4010_2008,
    0x0105_0002_9040_0002, 0x8001_0222_0041_0400, 0x104a_0419_1801_3446, 0x008a_0000_8200_8238,
    0x04a0_0600_0810_0430, 0x0008_2200_0882_0801, 0x2508_0412_0800_5010, 0x4008_0802_0020_2020,
    0x2441_0010_1300_4000, 0x0030_0080_6040_7000, 0x4008_1080_0042_0800, 0x0012_0210_5029_0100,
    0x0210_0804_8220_0500, 0xcc01_1120_4810_0480, 0x0020_4028_0650_0440, 0x0004_8e00_8058_0080,
    0x0040_1020_2002_0080, 0x0028_0104_4008_0807, 0x4601_0411_0800_8800, 0x8040_810e_0410_4200,
    0x9012_1011_0400_088a, 0xa003_0802_1208_1050, 0x00c1_0040_4840_1004, 0x9000_00a0_1440_0800,
    0x0008_0210_4040_5401, 0x4020_0082_0600_2090, 0x0004_1904_2403_0100, 0x0424_008a_0202_6250,
    0x8004_0882_5090_0040, 0x1c00_4300_88a0_4200, 0x0001_0200_9404_0001, 0x8040_2100_2088_0061,
    0x2010_0404_5044_2032, 0x0800_8408_5004_4001, 0x0004_0408_0214_0004, 0x0004_080a_0422_2020,
    0x8088_8021_1002_2000, 0x1081_a104_1611_4400, 0x0205_010a_2406_0820, 0x0000_0007_2041_1080,
    0x1008_0002_0843_0400, 0x580c_0260_2881_0840, 0x8020_2044_1020_a110, 0x12c0_0224_0102_0018,
];

/// Rook directions as (file, rank) steps.
const ROOK_STEPS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// Bishop directions as (file, rank) steps.
const BISHOP_STEPS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Entries of the Rook table: the sum over squares of 2^(relevant squares).
const ROOK_TABLE_SIZE: usize = 102_400;
/// Entries of the Bishop table.
const BISHOP_TABLE_SIZE: usize = 5_248;

/// One square's magic: the relevant mask, the multiplier, the shift (64 minus the
/// relevant squares) and where its slice starts in the table.
#[derive(Copy, Clone, Debug)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    #[inline]
    const fn index(&self, occupied: u64) -> usize {
        self.offset as usize
            + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Every square's magic and the shared table of attack sets for one kind of slider.
pub(super) struct SliderTable<const SIZE: usize> {
    magics: [Magic; 64],
    attacks: [u64; SIZE],
}

impl<const SIZE: usize> SliderTable<SIZE> {
    /// The attacks from square `index` (0..64) when `occupied` holds the pieces.
    #[inline]
    pub(super) fn attacks(&self, index: usize, occupied: u64) -> u64 {
        self.attacks[self.magics[index].index(occupied)]
    }
}

/// Whether (`file`, `rank`) is on the board.
const fn on_board(file: i8, rank: i8) -> bool {
    file >= 0 && file < 8 && rank >= 0 && rank < 8
}

/// The attacks from `square` along `steps`, each ray stopping at the first occupied
/// square, by walking the board: the reference the tables are filled from.
const fn walked_attacks(square: usize, occupied: u64, steps: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    let mut direction = 0;
    while direction < 4 {
        let (step_file, step_rank) = steps[direction];
        let mut file = (square % 8) as i8 + step_file;
        let mut rank = (square / 8) as i8 + step_rank;
        while on_board(file, rank) {
            let bit = 1u64 << (rank * 8 + file);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            file += step_file;
            rank += step_rank;
        }
        direction += 1;
    }
    attacks
}

/// The squares along `steps` whose occupation can change the attacks: every ray square
/// except the last one before the edge.
const fn relevant_mask(square: usize, steps: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    let mut direction = 0;
    while direction < 4 {
        let (step_file, step_rank) = steps[direction];
        let mut file = (square % 8) as i8 + step_file;
        let mut rank = (square / 8) as i8 + step_rank;
        while on_board(file + step_file, rank + step_rank) {
            mask |= 1u64 << (rank * 8 + file);
            file += step_file;
            rank += step_rank;
        }
        direction += 1;
    }
    mask
}

/// Fills a table from the walked attacks of every occupancy of every relevant mask.
/// Panics (at compile time) when the magics do not fit `SIZE` or collide.
const fn build<const SIZE: usize>(magics: &[u64; 64], steps: &[(i8, i8); 4]) -> SliderTable<SIZE> {
    let mut table = SliderTable {
        magics: [Magic {
            mask: 0,
            magic: 0,
            shift: 0,
            offset: 0,
        }; 64],
        attacks: [0; SIZE],
    };
    let mut offset = 0;
    let mut square = 0;
    while square < 64 {
        let mask = relevant_mask(square, steps);
        let bits = mask.count_ones();
        let magic = Magic {
            mask,
            magic: magics[square],
            shift: 64 - bits,
            offset: offset as u32,
        };
        table.magics[square] = magic;
        // Every subset of the mask, by the carry-rippler walk.
        let mut subset = 0u64;
        loop {
            let attacks = walked_attacks(square, subset, steps);
            let index = magic.index(subset);
            // A slider always attacks some square, so 0 marks an unused entry.
            assert!(
                table.attacks[index] == 0 || table.attacks[index] == attacks,
                "magic collision"
            );
            table.attacks[index] = attacks;
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        offset += 1 << bits;
        square += 1;
    }
    assert!(offset == SIZE, "table size");
    table
}

/// Rook attacks from every square on every board.
pub(super) static ROOK_TABLE: SliderTable<ROOK_TABLE_SIZE> = build(&ROOK_MAGICS, &ROOK_STEPS);
/// Bishop attacks from every square on every board.
pub(super) static BISHOP_TABLE: SliderTable<BISHOP_TABLE_SIZE> =
    build(&BISHOP_MAGICS, &BISHOP_STEPS);
