//! Helpers shared by the tests of searches with ending tables: side-5 tables written to
//! a file and loaded as `EndingsFile` is.
#![allow(dead_code)]

use tessera::endings::{EndingsFile, PLY_LIMIT, SolverBoard, Tables};

/// Side-5 tables up to 3 v 1, and the path of their file in a fresh temporary directory
/// named after `name` (each test its own).
pub fn side5_file(name: &str) -> (Tables, std::path::PathBuf) {
    let mut tables = Tables::new(SolverBoard::new(5).expect("side 5"), PLY_LIMIT);
    tables.solve_up_to(3, 1);
    let directory = std::env::temp_dir().join(format!(
        "tessera-search-endings-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&directory).expect("a temporary directory");
    let path = directory.join("side5.tce");
    let mut out = std::fs::File::create(&path).expect("created");
    EndingsFile::from_tables(&tables)
        .write(&mut out)
        .expect("written");
    (tables, path)
}
