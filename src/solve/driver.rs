//! One solve from start to answer: the root's moves (one per class of symmetric moves),
//! threads, progress lines on stderr, checkpoints at intervals, and the best move.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::search::{Shared, Solvable, Worker};
use super::table::{Entry, Key};

/// How to solve: what is asked and with what resources.
#[derive(Clone, Debug)]
pub struct Settings {
    /// What is asked of the root.
    pub question: Question,
    /// The value of every root move too.
    pub all: bool,
    pub threads: usize,
    /// Seconds between progress lines on stderr; 0 for none.
    pub progress_seconds: f64,
    /// Seconds between checkpoints, when `checkpoint` is given.
    pub checkpoint_seconds: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            question: Question::Exact,
            all: false,
            threads: 1,
            progress_seconds: 0.0,
            checkpoint_seconds: 60.0,
        }
    }
}

/// What a solve found: the root's value for the side to move, a best move (none on a
/// finished game) and, with `all`, every root move's value (in the rules' move order).
#[derive(Clone, Debug)]
pub struct Solution<M> {
    pub value: i32,
    pub best: Option<M>,
    pub moves: Vec<(M, i32)>,
}

/// Called at checkpoint time with the table's entries; an error stops nothing (it is
/// reported by the callee).
pub type CheckpointWriter<'a> = dyn Fn(&Shared) + Sync + 'a;

/// Solves `root`. `checkpoint` is called every `settings.checkpoint_seconds` while the
/// search runs and once at the end.
pub fn solve<G: Solvable>(
    root: &G,
    settings: &Settings,
    shared: &Shared,
    checkpoint: Option<&CheckpointWriter>,
) -> Solution<G::Move> {
    solve_until_stopped(root, settings, shared, checkpoint)
        .expect("a solve without a node limit runs until someone stops it")
}

/// [`solve`] that gives up when `shared.stop` is set from outside or `shared.node_limit`
/// is reached (the engine's `go` tries the solver this way): `None` then. Whatever was
/// proven before the stop stays in the table.
pub fn solve_until_stopped<G: Solvable>(
    root: &G,
    settings: &Settings,
    shared: &Shared,
    checkpoint: Option<&CheckpointWriter>,
) -> Option<Solution<G::Move>> {
    if let Some(value) = root.final_value() {
        let value = match settings.question {
            Question::Sign => value.signum(),
            _ => value,
        };
        return Some(Solution {
            value,
            best: None,
            moves: Vec::new(),
        });
    }
    let mut children = Vec::new();
    root.children(&mut children);
    let moves: Vec<(G::Move, G)> = children
        .into_iter()
        .map(|child| (child.mv, child.position))
        .collect();
    // One representative per class of moves that lead to symmetric positions.
    let keys: Vec<Key> = moves
        .iter()
        .map(|(_, position)| position.root_key())
        .collect();
    let mut representatives: Vec<usize> = Vec::new();
    let class: Vec<usize> = keys
        .iter()
        .enumerate()
        .map(|(index, key)| {
            match representatives
                .iter()
                .position(|&other| keys[other] == *key)
            {
                Some(class) => class,
                None => {
                    representatives.push(index);
                    representatives.len() - 1
                }
            }
        })
        .collect();
    let done = AtomicBool::new(false);
    let proven = AtomicUsize::new(0);
    // Several threads mark the nodes they are on (see `Shared::busy`).
    shared
        .parallel
        .store(settings.threads > 1, Ordering::Relaxed);
    let total = if settings.all {
        representatives.len()
    } else {
        1
    };
    let mut solution = None;
    std::thread::scope(|scope| {
        // No watcher when it has nothing to do: it wakes every 50 ms, and a solve inside
        // a move's time must not wait for it.
        if settings.progress_seconds > 0.0 || checkpoint.is_some() {
            scope.spawn(|| watch(root, settings, shared, checkpoint, &done, &proven, total));
        }
        solution = if settings.all {
            let Some(values) = solve_each(&moves, &representatives, settings, shared, &proven)
            else {
                done.store(true, Ordering::Relaxed);
                return;
            };
            let moves_valued: Vec<(G::Move, i32)> = moves
                .iter()
                .zip(&class)
                .map(|((mv, _), &class)| (*mv, values[class]))
                .collect();
            let best = moves_valued
                .iter()
                .max_by_key(|(_, value)| *value)
                .map(|&(mv, _)| mv);
            let value = moves_valued.iter().map(|&(_, value)| value).max();
            Some(Solution {
                value: value.unwrap_or(0),
                best,
                moves: moves_valued,
            })
        } else {
            solve_root(root, settings, shared).and_then(|(value, found)| {
                proven.store(1, Ordering::Relaxed);
                let best = match found {
                    Some(mv) => Some(mv),
                    None => Some(best_move(root, &moves, value, settings.question, shared)?),
                };
                Some(Solution {
                    value,
                    best,
                    moves: Vec::new(),
                })
            })
        };
        done.store(true, Ordering::Relaxed);
    });
    if let Some(write) = checkpoint {
        write(shared);
    }
    solution
}

/// What is asked of one position, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The exact value (MTD(f)).
    Exact,
    /// Win/draw/loss only: the value's sign (one search of the window `(-1, 1)`).
    Sign,
    /// Only whether the value is at least this (one null window there): the answer is a
    /// proven bound, a lower one at or above the threshold, else an upper one. The
    /// cheapest question a long solve can ask when one bound is known already.
    AtLeast(i32),
}

impl Question {
    /// The same question asked of a root move's position, whose mover is the opponent:
    /// the root is worth at least `t` exactly when the child is not worth at least `1 - t`.
    fn for_child(self) -> Self {
        match self {
            Question::AtLeast(threshold) => Question::AtLeast(1 - threshold),
            other => other,
        }
    }
}

/// One position's answer for its side to move: the sign, the exact value, or a bound on
/// the right side of the threshold.
fn value_of<G: Solvable>(
    worker: &mut Worker<'_, G>,
    position: &G,
    question: Question,
) -> Option<i32> {
    let value = match question {
        Question::Exact => return worker.exact_from_guess(position),
        Question::Sign => worker.sign(position),
        Question::AtLeast(threshold) => {
            // A threshold past the values answers the same as one at their edge, and
            // the search takes windows within them only.
            let bound = position.value_bound();
            let threshold = threshold.clamp(-bound, bound + 1);
            worker.search(position, threshold - 1, threshold, 0)
        }
    };
    (!worker_stopped(worker)).then_some(value)
}

fn worker_stopped<G: Solvable>(worker: &Worker<'_, G>) -> bool {
    worker.shared().stopped()
}

/// The root's value with every thread on it (the first to finish stops the others), and
/// the root move that proved it when the search saw one; `None` when stopped from
/// outside first.
fn solve_root<G: Solvable>(
    root: &G,
    settings: &Settings,
    shared: &Shared,
) -> Option<(i32, Option<G::Move>)> {
    let answer = Mutex::new(None);
    // MTD(f)'s start, found once for every thread (Cheversi's is a search of its own).
    let guess = (settings.question == Question::Exact).then(|| root.guess(&shared.stop));
    std::thread::scope(|scope| {
        for thread_index in 0..settings.threads.max(1) {
            let answer = &answer;
            scope.spawn(move || {
                let mut worker = Worker::new(shared, thread_index);
                let value = match guess {
                    Some(guess) => worker.exact(root, guess),
                    None => value_of(&mut worker, root, settings.question),
                };
                worker.flush();
                if let Some(value) = value {
                    let mut answer = answer.lock().unwrap_or_else(|error| error.into_inner());
                    answer.get_or_insert((value, worker.root_best));
                    shared.stop.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    let answer = answer
        .into_inner()
        .unwrap_or_else(|error| error.into_inner());
    // The stop that ended the helper threads is ours to lift, not one from outside.
    if answer.is_some() {
        shared.stop.store(false, Ordering::Relaxed);
    }
    answer
}

/// Every representative root move's value for the root's mover; threads take moves in
/// turn.
fn solve_each<G: Solvable>(
    moves: &[(G::Move, G)],
    representatives: &[usize],
    settings: &Settings,
    shared: &Shared,
    proven: &AtomicUsize,
) -> Option<Vec<i32>> {
    let values = Mutex::new(vec![0; representatives.len()]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            scope.spawn(|| {
                let mut worker = Worker::new(shared, 0);
                loop {
                    let class = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = representatives.get(class) else {
                        break;
                    };
                    let child = &moves[index].1;
                    let value = value_of(&mut worker, child, settings.question.for_child());
                    worker.flush();
                    let Some(value) = value else {
                        break;
                    };
                    values.lock().unwrap_or_else(|error| error.into_inner())[class] = -value;
                    proven.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    (!shared.stopped()).then(|| {
        values
            .into_inner()
            .unwrap_or_else(|error| error.into_inner())
    })
}

/// A root move reaching `value` (a win when only the sign is known), from the moves in
/// the search's order; the table makes each test cheap. `None` when stopped.
fn best_move<G: Solvable>(
    root: &G,
    moves: &[(G::Move, G)],
    value: i32,
    question: Question,
    shared: &Shared,
) -> Option<G::Move> {
    let target = match question {
        Question::Sign if value < 0 => -root.value_bound(),
        // An upper bound below the threshold: no move reaches it, any one shows it.
        Question::AtLeast(threshold) if value < threshold => {
            return moves.first().map(|&(mv, _)| mv);
        }
        _ => value,
    };
    let table_move = shared.table.probe(root.key()).map_or(0, |entry| entry.best);
    let mut worker = Worker::new(shared, 0);
    let found = moves
        .iter()
        .filter(|(mv, _)| root.move_code(*mv) == table_move)
        .chain(moves.iter())
        .find(|(_, child)| -worker.search(child, -target, -target + 1, 1) >= target)
        .map(|&(mv, _)| mv);
    worker.flush();
    if shared.stopped() {
        return None;
    }
    found.or_else(|| moves.first().map(|&(mv, _)| mv))
}

/// The root's proven bounds for a progress line, and the move that proved the lower one
/// when the table keeps it: in a long solve, which move holds the bound so far.
fn root_progress<G: Solvable>(root: &G, entry: &Entry) -> String {
    let proving = (entry.best != 0)
        .then(|| root.child_by_code(entry.best))
        .flatten()
        .map(|child| format!(" by {}", root.move_text(child.mv)))
        .unwrap_or_default();
    format!(" root [{}, {}]{proving}", entry.lower, entry.upper)
}

/// The watcher thread: progress lines and checkpoints until the solve is done.
fn watch<G: Solvable>(
    root: &G,
    settings: &Settings,
    shared: &Shared,
    checkpoint: Option<&CheckpointWriter>,
    done: &AtomicBool,
    proven: &AtomicUsize,
    total: usize,
) {
    let started = Instant::now();
    let mut last_progress = Instant::now();
    let mut last_checkpoint = Instant::now();
    let mut last_nodes = 0u64;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if settings.progress_seconds > 0.0
            && last_progress.elapsed().as_secs_f64() >= settings.progress_seconds
        {
            let nodes = shared.nodes.load(Ordering::Relaxed);
            let seconds = last_progress.elapsed().as_secs_f64();
            let bounds = shared
                .table
                .probe(root.key())
                .map(|entry| root_progress(root, &entry))
                .unwrap_or_default();
            eprintln!(
                "info nodes {nodes} stored {} proven {}/{total}{bounds} rate {:.0}/s elapsed {:.1}s",
                shared.table.stored(),
                proven.load(Ordering::Relaxed),
                (nodes - last_nodes) as f64 / seconds.max(1e-9),
                started.elapsed().as_secs_f64(),
            );
            last_nodes = nodes;
            last_progress = Instant::now();
        }
        if let Some(write) = checkpoint
            && last_checkpoint.elapsed().as_secs_f64() >= settings.checkpoint_seconds
        {
            write(shared);
            last_checkpoint = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cheversi::{Cheversi, Move, PieceKind};
    use crate::solve::cheversi::CheversiState;

    fn entry(lower: i16, upper: i16, best: u32) -> Entry {
        Entry {
            key: [0; 2],
            lower,
            upper,
            best,
            work: 0,
        }
    }

    #[test]
    fn progress_names_the_move_that_proved_the_roots_lower_bound() {
        let root = CheversiState::new(Cheversi::default());
        let mut children = Vec::new();
        root.children(&mut children);
        let king = children
            .iter()
            .find(|child| root.move_text(child.mv) == "Ke4")
            .expect("the King may start on e4");
        let code = root.move_code(king.mv);
        assert_eq!(
            root_progress(&root, &entry(-1, 127, code)),
            " root [-1, 127] by Ke4"
        );
        assert_eq!(root_progress(&root, &entry(-3, 5, 0)), " root [-3, 5]");
        // A code that names no legal move here (a Queen first) is left out, not guessed.
        let queen = root.move_code(Move::new(PieceKind::Queen, king.mv.square()));
        assert_eq!(root_progress(&root, &entry(-3, 5, queen)), " root [-3, 5]");
    }
}
