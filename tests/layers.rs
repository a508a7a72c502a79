//! The crate's layers, checked: every import of every file under `src/` points down the
//! layer table of the crate root's documentation (`src/lib.rs`, "Layers"), and no files
//! import each other in a circle.
//!
//! An import is a `use` item or a path that starts with `crate::`, `super::`, `self::` or
//! the name of a child module, in code (comments and string literals are left out), test
//! modules included. A `pub use` re-export routes a name to where it is defined: a path
//! through it counts as an import of the defining file, and the re-export itself counts
//! as one only where the re-exporting module uses the name in its own code. The nodes of
//! the circle check are modules: each file, and each inline module (`mod tests { .. }`)
//! apart from its file.
//!
//! The reading of the source is in `layers_support`.

mod layers_support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use layers_support::{Crate, Import, declared_file_module};

/// The layer table of the crate root's documentation: each room's level.
fn layer_table(lib: &str) -> BTreeMap<String, usize> {
    let mut levels = BTreeMap::new();
    for line in lib.lines() {
        let Some(row) = line.trim().strip_prefix("//! |") else {
            continue;
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let Some(Ok(level)) = cells.first().map(|cell| cell.parse::<usize>()) else {
            continue;
        };
        for name in cells.get(1).unwrap_or(&"").split('`').skip(1).step_by(2) {
            levels.insert(name.to_string(), level);
        }
    }
    levels
}

/// Every breach of the layers: an import from a room on the same or a higher level, or
/// from a room the table does not place. One line each, naming file, line and import.
fn layer_breaches(krate: &Crate, levels: &BTreeMap<String, usize>) -> Vec<String> {
    let mut breaches = Vec::new();
    for (index, module) in krate.modules.iter().enumerate() {
        let Some(room) = module.path.first() else {
            continue;
        };
        let Some(&level) = levels.get(room) else {
            breaches.push(format!(
                "{}: room `{room}` is not in the layer table",
                krate.file_of(index)
            ));
            continue;
        };
        for import in &krate.imports[index] {
            let target = krate
                .resolve(&import.path)
                .map(|target| &krate.modules[target].path);
            let target_room = match target.and_then(|path| path.first()) {
                Some(target_room) => target_room.clone(),
                None => "the crate root".to_string(),
            };
            if &target_room == room {
                continue;
            }
            let verdict = match levels.get(&target_room) {
                Some(&other) if other < level => continue,
                Some(&other) => format!("from `{target_room}` (level {other})"),
                None => format!("from {target_room}, above every room"),
            };
            breaches.push(format!(
                "{}:{}: `{room}` (level {level}) imports `{}` {verdict}",
                krate.file_of(index),
                import.line,
                import.text
            ));
        }
    }
    breaches
}

/// Every circle of modules importing each other, as the modules and one import each
/// that closes it.
fn import_cycles(krate: &Crate) -> Vec<String> {
    let count = krate.modules.len();
    let mut edges: Vec<BTreeMap<usize, &Import>> = vec![BTreeMap::new(); count];
    for (index, imports) in krate.imports.iter().enumerate() {
        for import in imports {
            if let Some(target) = krate.resolve(&import.path)
                && target != index
            {
                edges[index].entry(target).or_insert(import);
            }
        }
    }
    // Tarjan's strongly connected components, without recursion.
    let mut order = vec![usize::MAX; count];
    let mut low = vec![0; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next = 0;
    for start in 0..count {
        if order[start] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, Vec<usize>)> = Vec::new();
        order[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        work.push((start, edges[start].keys().copied().collect()));
        while let Some((node, pending)) = work.last_mut() {
            let node = *node;
            if let Some(target) = pending.pop() {
                if order[target] == usize::MAX {
                    order[target] = next;
                    low[target] = next;
                    next += 1;
                    stack.push(target);
                    on_stack[target] = true;
                    work.push((target, edges[target].keys().copied().collect()));
                } else if on_stack[target] {
                    low[node] = low[node].min(order[target]);
                }
                continue;
            }
            work.pop();
            if let Some((parent, _)) = work.last() {
                low[*parent] = low[*parent].min(low[node]);
            }
            if low[node] == order[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    components.push(component);
                }
            }
        }
    }
    components
        .into_iter()
        .map(|component| {
            let mut lines: Vec<String> = component
                .iter()
                .flat_map(|&member| {
                    edges[member]
                        .iter()
                        .filter(|(target, _)| component.contains(target))
                        .map(move |(&target, import)| (member, target, import))
                })
                .map(|(member, target, import)| {
                    format!(
                        "  {}:{} imports `{}` ({})",
                        krate.file_of(member),
                        import.line,
                        import.text,
                        krate.name(target)
                    )
                })
                .collect();
            lines.sort();
            let mut names: Vec<String> =
                component.iter().map(|&member| krate.name(member)).collect();
            names.sort();
            format!("circle of {}:\n{}", names.join(", "), lines.join("\n"))
        })
        .collect()
}

fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The table holds every room the crate root declares, and only those.
#[test]
fn the_layer_table_places_every_room() {
    let lib = std::fs::read_to_string(source_root().join("lib.rs")).expect("src/lib.rs");
    let levels = layer_table(&lib);
    let rooms: BTreeSet<String> = lib
        .lines()
        .filter_map(|line| declared_file_module(line.trim()))
        .collect();
    let placed: BTreeSet<String> = levels.keys().cloned().collect();
    assert_eq!(
        rooms, placed,
        "rooms declared in src/lib.rs and rooms in its layer table"
    );
}

#[test]
fn every_import_points_down_the_layers() {
    let lib = std::fs::read_to_string(source_root().join("lib.rs")).expect("src/lib.rs");
    let krate = Crate::read(&source_root());
    let breaches = layer_breaches(&krate, &layer_table(&lib));
    assert!(
        breaches.is_empty(),
        "imports against the layer table of src/lib.rs:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let krate = Crate::read(&source_root());
    let cycles = import_cycles(&krate);
    assert!(cycles.is_empty(), "{}", cycles.join("\n"));
}

/// A small crate written to a scratch folder: the checks must find the upward import
/// and the circle planted in it, and nothing else.
#[test]
fn the_checks_find_a_planted_upward_import_and_circle() {
    let root = std::env::temp_dir().join(format!("tessera-layers-{}", std::process::id()));
    let files: [(&str, &str); 7] = [
        (
            "lib.rs",
            "//! | level | room |\n//! |---|---|\n//! | 0 | [`low`] |\n\
             //! | 1 | [`high`], [`side`](mod@side) |\npub mod high;\npub mod low;\npub mod side;\n",
        ),
        ("low/mod.rs", "mod a;\nmod b;\npub use a::Thing;\n"),
        (
            "low/a.rs",
            "use super::b::helper;\n/// `crate::high` in a comment is no import.\npub struct Thing;\n\
             pub(in crate::low) fn near() -> char { '\\'' }\n",
        ),
        (
            "low/b.rs",
            "pub fn helper() -> &'static str {\n    let _ = \"crate::high::Up\";\n    \
             let _ = crate::high::Up;\n    \"x\"\n}\nfn other(_: super::Thing) {}\n",
        ),
        (
            "high.rs",
            "pub struct Up;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
        (
            "side.rs",
            "use crate::low::Thing;\npub fn f() -> u8 {\n    crate::high::g()\n}\n",
        ),
        ("README", "not code\n"),
    ];
    for (name, text) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("scratch folder");
        std::fs::write(&path, text).expect("scratch file");
    }
    let lib = std::fs::read_to_string(root.join("lib.rs")).expect("lib.rs");
    let krate = Crate::read(&root);
    let breaches = layer_breaches(&krate, &layer_table(&lib));
    let cycles = import_cycles(&krate);
    std::fs::remove_dir_all(&root).expect("scratch folder removed");
    assert_eq!(
        breaches,
        vec![
            "src/low/b.rs:3: `low` (level 0) imports `crate::high::Up` from `high` (level 1)",
            "src/side.rs:3: `side` (level 1) imports `crate::high::g` from `high` (level 1)",
        ]
    );
    assert_eq!(
        cycles,
        vec![
            "circle of src/low/a.rs, src/low/b.rs:\n  src/low/a.rs:1 imports `super::b::helper` (src/low/b.rs)\n  src/low/b.rs:6 imports `super::Thing` (src/low/a.rs)"
        ]
    );
}
