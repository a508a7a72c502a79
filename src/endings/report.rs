//! What the tables say, in figures: per table, how many positions are won, lost or drawn
//! under the ply limit and the longest distances; and samples of won positions, written
//! as position strings, for testing conversion.

use super::board::{MAX_MEN, Occupancy, SolverBoard, position_text};
use super::solve::{Tables, Value};
use crate::board::hex::geometry;
use crate::random::SplitMix64;

/// The figures of one table (one side to move), from the side to move's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableReport {
    /// Men of the side to move and of the other side.
    pub mover: usize,
    pub opponent: usize,
    /// Positions (placements with no shared cell).
    pub positions: u64,
    /// Won or lost within the ply limit from a fresh counter.
    pub wins: u64,
    pub losses: u64,
    /// Won or lost, but only in more plies than the limit allows (drawn by the rule).
    pub late_wins: u64,
    pub late_losses: u64,
    /// The longest distance of a win or loss within the limit.
    pub longest_win: u8,
    pub longest_loss: u8,
    /// Per distance from the edge of the weaker side's man nearest it (0 on the edge;
    /// the opponent's men when the sides are equal): positions, wins, losses.
    pub by_edge: Vec<[u64; 3]>,
}

impl TableReport {
    /// Drawn under the rule: neither won nor lost within the limit.
    pub fn draws(&self) -> u64 {
        self.positions - self.wins - self.losses
    }

    /// One line: material, counts and shares.
    pub fn line(&self) -> String {
        let share = |count: u64| 100.0 * count as f64 / self.positions.max(1) as f64;
        format!(
            "{}v{} to move: {} positions, won {} ({:.2}%, longest {}), lost {} ({:.2}%, longest {}), drawn {} ({:.2}%; of them {} won and {} lost beyond the limit)",
            self.mover,
            self.opponent,
            self.positions,
            self.wins,
            share(self.wins),
            self.longest_win,
            self.losses,
            share(self.losses),
            self.longest_loss,
            self.draws(),
            share(self.draws()),
            self.late_wins,
            self.late_losses,
        )
    }

    /// One line: the share won and lost per distance of the weaker side from the edge.
    pub fn edge_line(&self) -> String {
        let buckets: Vec<String> = self
            .by_edge
            .iter()
            .enumerate()
            .map(|(distance, &[positions, wins, losses])| {
                let share = |count: u64| 100.0 * count as f64 / positions.max(1) as f64;
                format!(
                    "{distance}: {:.1}% won {:.1}% lost",
                    share(wins),
                    share(losses)
                )
            })
            .collect();
        format!(
            "{}v{} to move, by the weaker side's distance from the edge: {}",
            self.mover,
            self.opponent,
            buckets.join(", ")
        )
    }
}

/// Both tables of one class (`a` men against `b`, each side to move).
#[derive(Clone, Debug)]
pub struct ClassReport {
    pub tables: Vec<TableReport>,
}

/// The figures of the class `a` against `b`, if solved.
pub fn class_report(tables: &Tables, a: usize, b: usize) -> Option<ClassReport> {
    let mut reports = Vec::new();
    let pairs: &[(usize, usize)] = if a == b { &[(a, b)] } else { &[(a, b), (b, a)] };
    let limit = tables.limit();
    let board = tables.board();
    let geometry = geometry(board.side()).expect("a solver board has a geometry");
    let edge_distance: Vec<usize> = (0..board.cells() as u8)
        .map(|cell| board.side() - 1 - geometry.ring(board.bit(cell)))
        .collect();
    for &(mover, opponent) in pairs {
        let table = tables.table(mover, opponent)?;
        let mut report = TableReport {
            mover,
            opponent,
            by_edge: vec![[0; 3]; board.side()],
            ..TableReport::default()
        };
        table.for_each(board, |own, other, value| {
            report.positions += 1;
            let weaker = if own.len() < other.len() { own } else { other };
            let nearest = weaker
                .iter()
                .map(|&cell| edge_distance[usize::from(cell)])
                .min();
            let bucket = &mut report.by_edge[nearest.unwrap_or(0)];
            bucket[0] += 1;
            match value.within(usize::from(limit)) {
                Value::Win(_) => bucket[1] += 1,
                Value::Loss(_) => bucket[2] += 1,
                Value::Draw => {}
            }
            match value {
                Value::Win(plies) if plies <= limit => {
                    report.wins += 1;
                    report.longest_win = report.longest_win.max(plies);
                }
                Value::Loss(plies) if plies <= limit => {
                    report.losses += 1;
                    report.longest_loss = report.longest_loss.max(plies);
                }
                Value::Win(_) => report.late_wins += 1,
                Value::Loss(_) => report.late_losses += 1,
                Value::Draw => {}
            }
        });
        reports.push(report);
    }
    Some(ClassReport { tables: reports })
}

/// Up to `count` positions, drawn at random from the table of `mover` men to move
/// against `opponent`, that the side to move wins within the limit in at least
/// `min_plies` plies (so none starts with a capture), as position strings with a fresh
/// counter; each with its distance. Deterministic for a seed.
pub fn won_positions(
    tables: &Tables,
    mover: usize,
    opponent: usize,
    count: usize,
    min_plies: u8,
    seed: u64,
) -> Vec<(String, u8)> {
    let board = tables.board();
    let mut found = Vec::new();
    if mover > MAX_MEN || opponent > MAX_MEN || tables.table(mover, opponent).is_none() {
        return found;
    }
    let mut rng = SplitMix64::new(seed);
    let (mut own, mut other) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
    let (own, other) = (&mut own[..mover], &mut other[..opponent]);
    // Enough tries for any table where such wins are not vanishingly rare.
    for attempt in 0..2_000_000u64 {
        if found.len() == count {
            break;
        }
        board.unrank(rng.below_exact(board.combinations(mover)), own);
        board.unrank(rng.below_exact(board.combinations(opponent)), other);
        let occupied = Occupancy::of(own);
        if other.iter().any(|&cell| occupied.contains(cell)) {
            continue;
        }
        let Some(Value::Win(plies)) = tables.value(own, other) else {
            continue;
        };
        if plies < min_plies || plies > tables.limit() {
            continue;
        }
        let white_moves = attempt % 2 == 0;
        let (white, black) = if white_moves {
            (&*own, &*other)
        } else {
            (&*other, &*own)
        };
        found.push((position_text(board, white, black, white_moves), plies));
    }
    found
}

/// What the `endings` command solves and prints.
#[derive(Clone, Debug)]
pub struct EndingsRequest {
    /// Board side, 4 to 9.
    pub side: usize,
    /// Strong side's men, weak side's men: every class up to them is solved.
    pub men: (usize, usize),
    /// Plies a conversion may take from a fresh counter.
    pub limit: u8,
    /// Won positions to print for the full material, strong side to move.
    pub suite: usize,
    pub min_plies: u8,
    pub seed: u64,
    /// Positions per table to check against the engine's moves ([`super::verify`]).
    pub verify: usize,
    /// Write the solved tables with a side of one man, folded, to this file
    /// ([`super::EndingsFile`]), for the engine's `EndingsFile` option.
    pub write: Option<std::path::PathBuf>,
}

/// Solves the request's classes, printing each class's figures as it is done, then the
/// won positions, each after a comment line `# <a>v<b> win in <d> plies` (the form of
/// an openings book for `tessera match`).
pub fn run(request: &EndingsRequest, print: &mut dyn FnMut(&str)) -> Result<(), String> {
    let board = SolverBoard::new(request.side)
        .filter(|_| (4..=9).contains(&request.side))
        .ok_or_else(|| {
            format!(
                "size {}: hexcheckers boards have sides 4 to 9",
                request.side
            )
        })?;
    let (strong, weak) = request.men;
    if !(1..=MAX_MEN).contains(&strong) || !(1..=MAX_MEN).contains(&weak) {
        return Err(format!(
            "men {strong}v{weak}: each side has 1 to {MAX_MEN} men"
        ));
    }
    print(&format!(
        "side {} ({} cells), ply limit {}",
        request.side,
        board.cells(),
        request.limit
    ));
    let mut tables = Tables::new(board, request.limit);
    let mut classes: Vec<(usize, usize)> = (1..=strong)
        .flat_map(|a| (1..=weak.min(a)).map(move |b| (a, b)))
        .chain((1..=weak).flat_map(|a| (1..=strong.min(a)).map(move |b| (a, b))))
        .map(|(a, b)| (a.max(b), a.min(b)))
        .collect();
    classes.sort_by_key(|&(a, b)| (a + b, a));
    classes.dedup();
    for (a, b) in classes {
        let started = std::time::Instant::now();
        tables.solve_up_to(a, b);
        let report = class_report(&tables, a, b).ok_or("class not solved")?;
        let bytes: usize = [(a, b), (b, a)]
            .iter()
            .filter_map(|&(m, o)| tables.table(m, o))
            .map(|table| table.bytes())
            .sum::<usize>()
            / if a == b { 2 } else { 1 };
        print(&format!(
            "class {a}v{b}: solved in {:.1} s, {:.1} MB",
            started.elapsed().as_secs_f64(),
            bytes as f64 / 1e6
        ));
        for table in &report.tables {
            print(&format!("  {}", table.line()));
        }
        for table in &report.tables {
            print(&format!("  {}", table.edge_line()));
        }
        for table in report.tables.iter().filter(|_| request.verify > 0) {
            let (mover, opponent) = (table.mover, table.opponent);
            let checked = super::verify(&tables, mover, opponent, request.verify, request.seed)?;
            print(&format!(
                "  {mover}v{opponent} to move: {checked} sampled positions agree with the engine's moves"
            ));
        }
    }
    if let Some(path) = &request.write {
        let started = std::time::Instant::now();
        let file = super::EndingsFile::from_tables(&tables);
        let mut out = std::fs::File::create(path)
            .map(std::io::BufWriter::new)
            .map_err(|error| format!("cannot create {}: {error}", path.display()))?;
        file.write(&mut out)
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
        print(&format!(
            "wrote {} in {:.1} s: {}",
            path.display(),
            started.elapsed().as_secs_f64(),
            file.describe()
        ));
    }
    for (text, plies) in won_positions(
        &tables,
        strong,
        weak,
        request.suite,
        request.min_plies,
        request.seed,
    ) {
        print(&format!("# {strong}v{weak} win in {plies} plies"));
        print(&text);
    }
    Ok(())
}
