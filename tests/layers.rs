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
//! Plain string handling, no parser crate: the check reads what `rustfmt` writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its path from the crate root and where its code is.
#[derive(Clone, Debug)]
struct Module {
    path: Vec<String>,
    /// The file, relative to the source root.
    file: PathBuf,
    /// Byte range of the module's code in the file (a whole file, or an inline module's
    /// braces).
    span: (usize, usize),
}

/// One import: the absolute path it names and the line it is on.
#[derive(Clone, Debug)]
struct Import {
    path: Vec<String>,
    line: usize,
    text: String,
}

/// Everything the checks read, built from a source root.
struct Crate {
    root: PathBuf,
    modules: Vec<Module>,
    /// Source text of each file with comments and literals blanked (same length, so byte
    /// offsets and line numbers hold).
    code: BTreeMap<PathBuf, String>,
    /// Per module (index into `modules`): its imports, and its re-exports by name.
    imports: Vec<Vec<Import>>,
    exports: Vec<BTreeMap<String, Import>>,
    /// Macros exported at the crate root, by name: the module that defines each.
    macros: BTreeMap<String, usize>,
}

/// Blanks comments, string and character literals with spaces (newlines kept).
fn blank_comments_and_literals(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let mut index = 0;
    while index < bytes.len() {
        let rest = &bytes[index..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| index + n);
            blank(&mut out, index, end);
            index = end;
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut end = index;
            while end < bytes.len() {
                if bytes[end..].starts_with(b"/*") {
                    depth += 1;
                    end += 2;
                } else if bytes[end..].starts_with(b"*/") {
                    depth -= 1;
                    end += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    end += 1;
                }
            }
            blank(&mut out, index, end);
            index = end;
        } else if let Some(hashes) = raw_string_start(rest) {
            let open = index + 2 + hashes;
            let close: Vec<u8> = std::iter::once(b'"').chain(vec![b'#'; hashes]).collect();
            let end = bytes[open..]
                .windows(close.len())
                .position(|window| window == close.as_slice())
                .map_or(bytes.len(), |n| open + n + close.len());
            blank(&mut out, index, end);
            index = end;
        } else if rest[0] == b'"' {
            let mut end = index + 1;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, index, (end + 1).min(bytes.len()));
            index = end + 1;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\''), or else a lifetime left as code.
            let end = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).position(|&b| b == b'\'').map(|n| n + 3)
            } else {
                let width = std::str::from_utf8(&rest[1..rest.len().min(5)])
                    .ok()
                    .or_else(|| std::str::from_utf8(&rest[1..rest.len().min(2)]).ok())
                    .and_then(|tail| tail.chars().next())
                    .map_or(1, char::len_utf8);
                (rest.get(1 + width) == Some(&b'\'')).then_some(2 + width)
            };
            match end {
                Some(length) => {
                    blank(&mut out, index, index + length);
                    index += length;
                }
                None => index += 1,
            }
        } else {
            index += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII spaces replace whole characters")
}

/// The number of `#` of a raw string starting here (`r"`, `r#"`, `br"`), if one does.
fn raw_string_start(rest: &[u8]) -> Option<usize> {
    let rest = rest.strip_prefix(b"b").unwrap_or(rest);
    let after = rest.strip_prefix(b"r")?;
    let hashes = after.iter().take_while(|&&b| b == b'#').count();
    (after.get(hashes) == Some(&b'"')).then_some(hashes)
}

fn is_ident(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The byte after the brace that closes the one at `open`.
fn closing_brace(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (offset, byte) in code.bytes().enumerate().skip(open) {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return offset + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// Every `use` tree expanded into plain paths (`a::{b, c::d}` gives `a::b`, `a::c::d`),
/// each with the name it binds (`self` gives the prefix).
fn expand_use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path.trim(), Some(alias.trim())),
            None => (tree.trim(), None),
        };
        let mut segments: Vec<String> = path
            .split("::")
            .map(|segment| segment.trim().to_string())
            .filter(|segment| !segment.is_empty())
            .collect();
        if segments.last().is_some_and(|last| last == "self") {
            segments.pop();
        }
        let name = alias
            .map(str::to_string)
            .or_else(|| segments.last().cloned())
            .unwrap_or_default();
        return vec![(segments, name)];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (offset, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..offset]);
                start = offset + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .flat_map(|part| expand_use_tree(&format!("{prefix}{}", part.trim())))
        .collect()
}

impl Crate {
    /// Reads the crate whose root file is `root/lib.rs`.
    fn read(root: &Path) -> Crate {
        let mut krate = Crate {
            root: root.to_path_buf(),
            modules: Vec::new(),
            code: BTreeMap::new(),
            imports: Vec::new(),
            exports: Vec::new(),
            macros: BTreeMap::new(),
        };
        krate.add_file(Vec::new(), PathBuf::from("lib.rs"));
        for index in 0..krate.modules.len() {
            krate.read_imports(index);
        }
        krate
    }

    /// Adds the module in `file` and, recursively, its file and inline modules.
    fn add_file(&mut self, path: Vec<String>, file: PathBuf) {
        let full = self.root.join(&file);
        let text = std::fs::read_to_string(&full)
            .unwrap_or_else(|error| panic!("{}: {error}", full.display()));
        let code = blank_comments_and_literals(&text);
        let length = code.len();
        self.code.insert(file.clone(), code);
        self.add_module(path, file, (0, length), &text);
    }

    fn add_module(&mut self, path: Vec<String>, file: PathBuf, span: (usize, usize), text: &str) {
        let index = self.modules.len();
        self.modules.push(Module {
            path: path.clone(),
            file: file.clone(),
            span,
        });
        let code = self.code[&file].clone();
        let inner = self.inner_modules(&code, span);
        let mut offset = span.0;
        let mut path_attribute: Option<String> = None;
        while offset < span.1 {
            let line_end = code[offset..span.1]
                .find('\n')
                .map_or(span.1, |n| offset + n);
            let line = code[offset..line_end].trim();
            let original = text[offset..line_end].trim();
            let inside_inner = inner
                .iter()
                .any(|&(start, end, _)| offset > start && offset < end);
            if inside_inner {
                offset = line_end + 1;
                continue;
            }
            if let Some(rest) = original.strip_prefix("#[path = \"") {
                path_attribute = rest.split('"').next().map(str::to_string);
            } else if line.starts_with("#[macro_export]") {
                let next = code[line_end..span.1].trim_start();
                if let Some(rest) = next.strip_prefix("macro_rules!") {
                    let name: String = rest
                        .trim_start()
                        .bytes()
                        .take_while(|&b| is_ident(b))
                        .map(char::from)
                        .collect();
                    self.macros.insert(name, index);
                }
            } else if let Some(name) = declared_file_module(line) {
                let child = match path_attribute.take() {
                    Some(relative) => file.parent().unwrap_or(Path::new("")).join(relative),
                    None => child_file(&self.root, &file, &name),
                };
                let mut child_path = path.clone();
                child_path.push(name);
                self.add_file(child_path, child);
            } else if !line.starts_with("#[") {
                path_attribute = None;
            }
            offset = line_end + 1;
        }
        for (start, end, name) in inner {
            let mut child_path = path.clone();
            child_path.push(name);
            self.add_module(child_path, file.clone(), (start, end), text);
        }
    }

    /// The inline modules directly inside `span`: (its opening brace, the byte after its
    /// closing one, name).
    fn inner_modules(&self, code: &str, span: (usize, usize)) -> Vec<(usize, usize, String)> {
        let mut found = Vec::new();
        // An inline module's own span starts at its brace.
        let mut offset = if span.0 == 0 { 0 } else { span.0 + 1 };
        while let Some(at) = code[offset..span.1].find("mod ") {
            let start = offset + at;
            offset = start + 4;
            if start > 0 && is_ident(code.as_bytes()[start - 1]) {
                continue;
            }
            let rest = code[start + 4..span.1].trim_start();
            let name: String = rest
                .bytes()
                .take_while(|&b| is_ident(b))
                .map(char::from)
                .collect();
            let after = rest[name.len()..].trim_start();
            if name.is_empty() || !after.starts_with('{') {
                continue;
            }
            let open = span.1 - after.len();
            let end = closing_brace(code, open);
            found.push((open, end, name));
            offset = end;
        }
        found
    }

    /// The child modules of `module` by name.
    fn children(&self, module: usize) -> BTreeSet<String> {
        let path = &self.modules[module].path;
        self.modules
            .iter()
            .filter(|other| other.path.len() == path.len() + 1 && other.path.starts_with(path))
            .filter_map(|other| other.path.last().cloned())
            .collect()
    }

    /// Reads the imports and re-exports of one module.
    fn read_imports(&mut self, index: usize) {
        let module = self.modules[index].clone();
        let code = self.code[&module.file].clone();
        let inner = self.inner_modules(&code, module.span);
        let children = self.children(index);
        let own = |offset: usize| {
            offset >= module.span.0
                && offset < module.span.1
                && !inner
                    .iter()
                    .any(|&(start, end, _)| offset > start && offset < end)
        };
        let mut imports = Vec::new();
        let mut exports = BTreeMap::new();
        let mut use_spans = Vec::new();
        let mut search = module.span.0;
        while let Some(at) = code[search..module.span.1].find("use ") {
            let start = search + at;
            search = start + 4;
            if (start > 0 && is_ident(code.as_bytes()[start - 1])) || !own(start) {
                continue;
            }
            let end = code[start..].find(';').map_or(code.len(), |n| start + n);
            let before = code[module.span.0..start].trim_end();
            let restricted = before.ends_with(')') && {
                let open = before.rfind('(').unwrap_or(0);
                before[..open].trim_end().ends_with("pub")
            };
            let reexport = before.ends_with("pub") || restricted;
            use_spans.push((start, end));
            search = end;
            let line = line_of(&code, start);
            for (segments, name) in expand_use_tree(&code[start + 4..end]) {
                let Some(path) = self.absolute(&module.path, &children, &segments) else {
                    continue;
                };
                let import = Import {
                    path,
                    line,
                    text: segments.join("::"),
                };
                if reexport && name != "*" {
                    exports.insert(name, import);
                } else {
                    imports.push(import);
                }
            }
        }
        let in_use = |offset: usize| {
            use_spans
                .iter()
                .any(|&(start, end)| offset >= start && offset < end)
        };
        let bytes = code.as_bytes();
        let mut offset = module.span.0;
        while offset < module.span.1 {
            let starts_word =
                offset == 0 || !(is_ident(bytes[offset - 1]) || bytes[offset - 1] == b':');
            if starts_word && own(offset) && !in_use(offset) && is_ident(bytes[offset]) {
                let end = (offset..module.span.1)
                    .find(|&at| !(is_ident(bytes[at]) || bytes[at] == b':'))
                    .unwrap_or(module.span.1);
                let text = code[offset..end].trim_end_matches(':');
                let segments: Vec<String> = text.split("::").map(str::to_string).collect();
                let head = segments[0].as_str();
                let is_visibility = code[..offset].trim_end().ends_with("(in");
                if segments.len() > 1
                    && !is_visibility
                    && (matches!(head, "crate" | "super" | "self") || children.contains(head))
                    && let Some(path) = self.absolute(&module.path, &children, &segments)
                {
                    imports.push(Import {
                        path,
                        line: line_of(&code, offset),
                        text: text.to_string(),
                    });
                }
                offset = end.max(offset + 1);
            } else {
                offset += 1;
            }
        }
        // A re-export the module itself uses is an import of it too.
        let own_code: String = code[module.span.0..module.span.1]
            .char_indices()
            .map(|(at, c)| {
                let offset = module.span.0 + at;
                if own(offset) && !in_use(offset) {
                    c
                } else {
                    ' '
                }
            })
            .collect();
        let own_code = own_code
            .lines()
            .filter(|line| declared_file_module(line.trim()).is_none())
            .collect::<Vec<_>>()
            .join("\n");
        for (name, import) in &exports {
            if contains_word(&own_code, name) {
                imports.push(import.clone());
            }
        }
        self.imports.push(imports);
        self.exports.push(exports);
    }

    /// The absolute path (from the crate root) of `segments` written in module `path`, or
    /// `None` for a path into another crate.
    fn absolute(
        &self,
        path: &[String],
        children: &BTreeSet<String>,
        segments: &[String],
    ) -> Option<Vec<String>> {
        let head = segments.first()?.as_str();
        let mut absolute: Vec<String>;
        let mut rest = segments;
        match head {
            "crate" | "$crate" => {
                absolute = Vec::new();
                rest = &segments[1..];
            }
            "super" | "self" => {
                absolute = path.to_vec();
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            absolute.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            _ if children.contains(head) => absolute = path.to_vec(),
            _ => return None,
        }
        absolute.extend(rest.iter().filter(|segment| *segment != "*").cloned());
        Some(absolute)
    }

    /// The module an absolute path lands in: the deepest module on it, through
    /// re-exports to where the name is defined; root macros to their module.
    fn resolve(&self, path: &[String]) -> Option<usize> {
        self.resolve_within(path, 0)
    }

    fn resolve_within(&self, path: &[String], depth: usize) -> Option<usize> {
        if path.len() == 1
            && let Some(&module) = self.macros.get(&path[0])
        {
            return Some(module);
        }
        let (module, used) = (0..=path.len()).rev().find_map(|length| {
            self.modules
                .iter()
                .position(|module| module.path == path[..length])
                .map(|module| (module, length))
        })?;
        if let Some(name) = path.get(used)
            && let Some(export) = self.exports[module].get(name)
            && depth < 16
        {
            let mut routed = export.path.clone();
            routed.extend(path[used + 1..].iter().cloned());
            return self.resolve_within(&routed, depth + 1).or(Some(module));
        }
        Some(module)
    }

    /// Where a module's code is, for messages: `src/file.rs` or `src/file.rs::tests`.
    fn name(&self, module: usize) -> String {
        let module_ = &self.modules[module];
        let file = Path::new("src").join(&module_.file).display().to_string();
        let file_path = self
            .modules
            .iter()
            .find(|other| other.file == module_.file && other.span.0 == 0);
        match file_path {
            Some(whole) if whole.path != module_.path => {
                format!("{file}::{}", module_.path[whole.path.len()..].join("::"))
            }
            _ => file,
        }
    }

    fn file_of(&self, module: usize) -> String {
        Path::new("src")
            .join(&self.modules[module].file)
            .display()
            .to_string()
    }
}

/// The module a `mod name;` line declares (with any visibility), if it is one.
fn declared_file_module(line: &str) -> Option<String> {
    let rest = line.strip_prefix("pub").map_or(line, |rest| {
        let rest = rest.trim_start();
        match rest.strip_prefix('(') {
            Some(inside) => inside.split_once(')').map_or(rest, |(_, after)| after),
            None => rest,
        }
    });
    let name = rest
        .trim_start()
        .strip_prefix("mod ")?
        .trim()
        .strip_suffix(';')?;
    name.bytes().all(is_ident).then(|| name.to_string())
}

/// The file of module `name` declared in `file`: `name.rs` or `name/mod.rs` beside a
/// `mod.rs` or `lib.rs`, else in the folder named after the file.
fn child_file(root: &Path, file: &Path, name: &str) -> PathBuf {
    let folder = match file.file_name().and_then(|name| name.to_str()) {
        Some("mod.rs" | "lib.rs" | "main.rs") => {
            file.parent().unwrap_or(Path::new("")).to_path_buf()
        }
        _ => file.with_extension(""),
    };
    let flat = folder.join(format!("{name}.rs"));
    if root.join(&flat).exists() {
        flat
    } else {
        folder.join(name).join("mod.rs")
    }
}

fn contains_word(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(word).any(|(at, _)| {
        let before = at.checked_sub(1).map(|index| bytes[index]);
        let after = bytes.get(at + word.len()).copied();
        !before.is_some_and(|b| is_ident(b) || b == b':') && !after.is_some_and(is_ident)
    })
}

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
