//! The documentation stays true: the shell examples of `README.md` and `docs/` are run (```sh)
//! or checked against the binary's `--help` (```sh no_run), the command reference names every
//! option of every command, code fences are ones this test knows, and every relative link
//! points to a file (and heading). The rules are written out at the top of
//! `docs/contributing.md`.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The reports the examples write: not read by this test.
const REPORTS: [&str; 6] = [
    "docs/level-model.md",
    "docs/rating-validation.md",
    "docs/rating-validation-findings.md",
    "docs/difficulty-fit.md",
    "docs/levels.md",
    "docs/handouts.md",
];

/// How long one example line may run.
const LINE_TIMEOUT: Duration = Duration::from_secs(120);

/// Folders of the repository copied into each page's working folder.
const COPIED: [&str; 2] = ["samples", "seeds"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `README.md` and every page under `docs/` but the reports, as paths relative to the root.
fn pages() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut found = Vec::new();
    walk(&root.join("docs"), &mut found);
    let mut pages: Vec<String> = found
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&root).unwrap().to_string_lossy();
            rel.replace('\\', "/")
        })
        .filter(|p| !REPORTS.contains(&p.as_str()))
        .collect();
    pages.sort();
    pages.insert(0, "README.md".to_string());
    pages
}

fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// A fenced code block: its info string, and its lines with their line numbers (1-based).
struct Block {
    info: String,
    line: usize,
    lines: Vec<(usize, String)>,
}

/// The fenced blocks of a page, and the page's other lines (prose).
fn split(text: &str) -> (Vec<Block>, Vec<(usize, String)>) {
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    let mut open: Option<(usize, usize, Block)> = None; // (indent, fence length, block)
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        let ticks = trimmed.chars().take_while(|&c| c == '`').count();
        match open.take() {
            None if ticks >= 3 => {
                let block = Block {
                    info: trimmed[ticks..].trim().to_string(),
                    line: no,
                    lines: Vec::new(),
                };
                open = Some((indent, ticks, block));
            }
            None => prose.push((no, raw.to_string())),
            Some((_, len, block)) if ticks >= len && trimmed[ticks..].trim().is_empty() => {
                blocks.push(block);
            }
            Some((ind, len, mut block)) => {
                block.lines.push((no, raw[indent.min(ind)..].to_string()));
                open = Some((ind, len, block));
            }
        }
    }
    if let Some((_, _, block)) = open {
        panic!("a code block opened at line {} is never closed", block.line);
    }
    (blocks, prose)
}

/// One logical line of a shell block: `\` continuations joined, the trailing comment apart.
struct Line {
    no: usize,
    code: String,
    comment: String,
}

fn logical_lines(block: &Block) -> Vec<Line> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (no, raw) in &block.lines {
        let (start, text) = match pending.take() {
            Some((start, mut text)) => {
                text.push(' ');
                text.push_str(raw.trim_start());
                (start, text)
            }
            None => (*no, raw.clone()),
        };
        let trimmed = text.trim_end();
        if let Some(head) = trimmed.strip_suffix('\\') {
            pending = Some((start, head.trim_end().to_string()));
            continue;
        }
        let (code, comment) = split_comment(&text);
        out.push(Line {
            no: start,
            code: code.trim().to_string(),
            comment: comment.trim().to_string(),
        });
    }
    if let Some((start, text)) = pending {
        let (code, comment) = split_comment(&text);
        out.push(Line {
            no: start,
            code: code.trim().to_string(),
            comment: comment.trim().to_string(),
        });
    }
    out
}

/// A shell line's code and its trailing comment: `#` at the start of a word, outside quotes.
fn split_comment(line: &str) -> (String, String) {
    let (mut single, mut double, mut escaped) = (false, false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' && !single {
            escaped = true;
        } else if c == '\'' && !double {
            single = !single;
        } else if c == '"' && !single {
            double = !double;
        } else if c == '#' && !single && !double && prev.is_whitespace() {
            return (line[..i].to_string(), line[i + 1..].to_string());
        }
        prev = c;
    }
    (line.to_string(), String::new())
}

/// A shell word (quotes removed) or an operator.
#[derive(Debug, PartialEq)]
enum Tok {
    Word(String),
    Op(&'static str),
}

fn tokens(code: &str) -> Vec<Tok> {
    const OPS: [&str; 10] = ["&&", "||", ">>", "|", ";", "&", ">", "<", "(", ")"];
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                    w.push(d);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(d) = chars.next() {
                    match d {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        _ => w.push(d),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c if c.is_whitespace() => out.extend(word.take().map(Tok::Word)),
            c if "&|;><()".contains(c) => {
                out.extend(word.take().map(Tok::Word));
                let two: String = [c].into_iter().chain(chars.peek().copied()).collect();
                let op: &'static str = OPS
                    .iter()
                    .copied()
                    .find(|op| *op == two)
                    .or_else(|| {
                        OPS.iter()
                            .copied()
                            .find(|op| op.len() == 1 && op.starts_with(c))
                    })
                    .unwrap();
                if op.len() == 2 {
                    chars.next();
                }
                out.push(Tok::Op(op));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word.take().map(Tok::Word));
    out
}

/// The simple commands of a line: their words, redirections left out.
fn commands(code: &str) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let mut redirect = false;
    for tok in tokens(code) {
        match tok {
            Tok::Op(">" | ">>" | "<") => redirect = true,
            Tok::Op(_) => out.push(Vec::new()),
            Tok::Word(_) if redirect => redirect = false,
            Tok::Word(w) => out.last_mut().unwrap().push(w),
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

/// The arguments of `pseudoku` in a command: after `pseudoku`, or after the `--` of
/// `cargo run ... --`.
fn pseudoku_args(command: &[String]) -> Option<&[String]> {
    match command.first().map(String::as_str) {
        Some("pseudoku") => Some(&command[1..]),
        Some("cargo") if command.get(1).is_some_and(|w| w == "run") => {
            let dashes = command.iter().position(|w| w == "--")?;
            Some(&command[dashes + 1..])
        }
        _ => None,
    }
}

/// `NAME=value` words only: environment variables for the page's later lines.
fn assignments(code: &str) -> Option<Vec<(String, String)>> {
    let cmds = commands(code);
    let [words] = cmds.as_slice() else {
        return None;
    };
    words
        .iter()
        .map(|w| {
            let (name, value) = w.split_once('=')?;
            let ok = !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            ok.then(|| (name.to_string(), value.to_string()))
        })
        .collect()
}

/// The exit status a line expects: N when its comment starts with `exit N`, else 0.
fn expected_status(comment: &str) -> i32 {
    comment
        .strip_prefix("exit ")
        .map(|rest| {
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn is_run(info: &str) -> bool {
    info == "sh"
}

fn is_no_run(info: &str) -> bool {
    info == "sh no_run"
}

/// The binary's `--help` for a command path, cached; `None` when it does not exist.
struct Helps(Mutex<HashMap<Vec<String>, Option<String>>>);

impl Helps {
    fn new() -> Helps {
        Helps(Mutex::new(HashMap::new()))
    }

    fn get(&self, path: &[String]) -> Option<String> {
        if let Some(h) = self.0.lock().unwrap().get(path) {
            return h.clone();
        }
        let out = Command::new(env!("CARGO_BIN_EXE_pseudoku"))
            .args(path)
            .arg("--help")
            .output()
            .unwrap();
        let help = out
            .status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned());
        self.0.lock().unwrap().insert(path.to_vec(), help.clone());
        help
    }

    /// The command path `args` starts with (`[SUB]` or `[SUB, SUB2]`) and its help.
    fn command(&self, args: &[String]) -> Result<(Vec<String>, String), String> {
        let mut path = Vec::new();
        let mut help = self.get(&path).ok_or("pseudoku --help fails")?;
        for word in args {
            if word.starts_with('-') || !help.contains("\nCommands:\n") {
                break;
            }
            path.push(word.clone());
            help = self
                .get(&path)
                .ok_or_else(|| format!("`pseudoku {}` is not a command", path.join(" ")))?;
        }
        Ok((path, help))
    }
}

/// Whether `help` names the option `flag` (`--name`), as a whole word.
fn names_option(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(i, _)| {
        let before = help[..i].chars().next_back();
        let after = help[i + flag.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// The options (`--name`) a text mentions.
fn options_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices("--") {
        let name: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        let starts_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'-');
        if starts_word && name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.insert(format!("--{name}"));
        }
    }
    out
}

/// The options a `--help` text lists (`-x, --name` or `--name` at the start of a line).
fn options_of_help(help: &str) -> BTreeSet<String> {
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = match l.strip_prefix('-') {
                Some(rest) if !rest.starts_with('-') => l.split_once(", ")?.1,
                Some(_) => l,
                None => return None,
            };
            let name: String = l
                .strip_prefix("--")?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            (!name.is_empty()).then(|| format!("--{name}"))
        })
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}

/// Checks one `sh no_run` line: every `pseudoku` command's options against its help, and a
/// `cargo` command's profile and example.
fn check_line(helps: &Helps, line: &Line) -> Vec<String> {
    let mut problems = Vec::new();
    for command in commands(&line.code) {
        if command.first().is_some_and(|w| w == "cargo") {
            for (flag, what) in [("--profile", "profile"), ("--example", "example")] {
                let Some(i) = command.iter().position(|w| w == flag) else {
                    continue;
                };
                let Some(name) = command.get(i + 1) else {
                    continue;
                };
                let exists = match what {
                    "profile" => {
                        name == "release"
                            || name == "dev"
                            || read("Cargo.toml").contains(&format!("[profile.{name}]"))
                    }
                    _ => root().join("examples").join(format!("{name}.rs")).is_file(),
                };
                if !exists {
                    problems.push(format!("no {what} `{name}`"));
                }
            }
        }
        let Some(args) = pseudoku_args(&command) else {
            continue;
        };
        match helps.command(args) {
            Err(e) => problems.push(e),
            Ok((path, help)) => {
                for word in &args[path.len()..] {
                    let Some(flag) = word.strip_prefix("--") else {
                        continue;
                    };
                    let flag = format!("--{}", flag.split('=').next().unwrap());
                    if flag != "--" && !names_option(&help, &flag) {
                        problems.push(format!(
                            "`pseudoku {}` has no option {flag}",
                            path.join(" ")
                        ));
                    }
                }
            }
        }
    }
    problems
}

/// The reference data folder, if it is there.
fn data_dir() -> Option<PathBuf> {
    pseudoku::dev::refdata::dir().ok()
}

/// Copies the files of `from` into `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// The last `n` lines of a file.
fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs `code` with `sh -c` in `dir`, the binary first on the PATH; its exit status, or an
/// error when it does not end in time.
fn run_sh(code: &str, dir: &Path, logs: &Path, vars: &[(String, String)]) -> Result<i32, String> {
    use std::os::unix::process::CommandExt as _;
    let bin = Path::new(env!("CARGO_BIN_EXE_pseudoku")).parent().unwrap();
    let path = match std::env::var_os("PATH") {
        Some(p) => {
            let mut dirs = vec![bin.to_path_buf()];
            dirs.extend(std::env::split_paths(&p));
            std::env::join_paths(dirs).unwrap()
        }
        None => bin.as_os_str().to_owned(),
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(code)
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("PSEUDOKU_DB")
        .envs(vars.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(logs.join("stdout")).unwrap())
        .stderr(std::fs::File::create(logs.join("stderr")).unwrap())
        .process_group(0)
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Ok(status.code().unwrap_or(-1));
        }
        if start.elapsed() > LINE_TIMEOUT {
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return Err(format!("still running after {} s", LINE_TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs the `sh` blocks of one page in a fresh folder; the problems found.
fn run_page(page: &str) -> Vec<String> {
    let (blocks, _) = split(&read(page));
    let runs: Vec<&Block> = blocks.iter().filter(|b| is_run(&b.info)).collect();
    if runs.is_empty() {
        return Vec::new();
    }
    let dir = tempfile::tempdir().unwrap();
    let logs = tempfile::tempdir().unwrap();
    for folder in COPIED {
        copy_dir(&root().join(folder), &dir.path().join(folder));
    }
    let data = data_dir();
    let mut vars = Vec::new();
    let mut problems = Vec::new();
    for block in runs {
        for line in logical_lines(block) {
            if line.code.is_empty() {
                continue;
            }
            if let Some(set) = assignments(&line.code) {
                vars.extend(set);
                continue;
            }
            let runs_pseudoku = commands(&line.code)
                .iter()
                .any(|c| c.first().is_some_and(|w| w == "pseudoku"));
            if !runs_pseudoku {
                continue;
            }
            let mut code = line.code.clone();
            if code.contains("../shared/data/") {
                let Some(data) = &data else {
                    crate::common::skipping(
                        "the documentation's examples on the shared reference data",
                        format!("../shared/data is absent (first: {page}:{})", line.no),
                    );
                    continue;
                };
                code = code.replace("../shared/data/", &format!("{}/", data.display()));
            }
            let want = expected_status(&line.comment);
            let at = format!("{page}:{}: `{}`", line.no, line.code);
            match run_sh(&code, dir.path(), logs.path(), &vars) {
                Ok(status) if status == want => {}
                Ok(status) => problems.push(format!(
                    "{at}: exit {status}, expected {want}\n  stderr:\n{}\n  stdout:\n{}",
                    tail(&logs.path().join("stderr"), 10),
                    tail(&logs.path().join("stdout"), 5)
                )),
                Err(e) => problems.push(format!("{at}: {e}")),
            }
        }
    }
    problems
}

#[test]
fn shell_examples_run() {
    let pages = pages();
    let next = AtomicUsize::new(0);
    let problems = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(page) = pages.get(i) else { break };
                let found = run_page(page);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    eprintln!(
        "ran the sh examples of {} pages in {:.1} s",
        pages.len(),
        start.elapsed().as_secs_f64()
    );
    let problems = problems.into_inner().unwrap();
    assert!(problems.is_empty(), "\n{}", problems.join("\n\n"));
}

#[test]
fn no_run_examples_use_real_commands_and_options() {
    let helps = Helps::new();
    let mut problems = Vec::new();
    for page in pages() {
        let (blocks, _) = split(&read(&page));
        for block in blocks.iter().filter(|b| is_no_run(&b.info)) {
            for line in logical_lines(block) {
                for p in check_line(&helps, &line) {
                    problems.push(format!("{page}:{}: `{}`: {p}", line.no, line.code));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn code_fences_are_known() {
    let mut problems = Vec::new();
    for page in pages() {
        let (blocks, _) = split(&read(&page));
        for block in &blocks {
            let info = block.info.as_str();
            let lang = info
                .split(|c: char| c == ',' || c.is_whitespace())
                .next()
                .unwrap_or("");
            let at = format!("{page}:{}: ```{info}", block.line);
            if ["bash", "shell", "console", "zsh", "shell-session"].contains(&lang) {
                problems.push(format!("{at}: fence shell examples as sh or sh no_run"));
            } else if lang == "sh" && !is_run(info) && !is_no_run(info) {
                problems.push(format!("{at}: only sh and sh no_run are known"));
            } else if lang == "rust" && page != "README.md" {
                let ignored = info
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .any(|a| a == "ignore");
                if !ignored {
                    problems.push(format!(
                        "{at}: Rust blocks outside the README are rust,ignore"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn command_reference_names_every_option() {
    let page = "docs/reference/cli.md";
    let helps = Helps::new();
    let mut problems = Vec::new();
    let mut sections: Vec<(usize, String, String)> = Vec::new(); // (line, command, text)
    let mut current: Option<(usize, String, String)> = None;
    let mut in_code = false;
    for (i, line) in read(page).lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        if line.starts_with('#') && !in_code {
            sections.extend(current.take());
            if let Some(name) = line.strip_prefix("### ") {
                current = Some((i + 1, name.replace('`', ""), String::new()));
            }
        } else if let Some((_, _, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    sections.extend(current);
    assert!(!sections.is_empty(), "{page}: no ### COMMAND sections");
    let mut covered = BTreeSet::new();
    for (no, name, text) in &sections {
        let path: Vec<String> = name.split_whitespace().map(String::from).collect();
        let Some(help) = helps.get(&path) else {
            problems.push(format!("{page}:{no}: `pseudoku {name}` is not a command"));
            continue;
        };
        covered.insert(path.clone());
        let documented = options_in(text);
        let real = options_of_help(&help);
        for o in real.difference(&documented) {
            problems.push(format!(
                "{page}:{no}: `pseudoku {name}`: {o} is not described"
            ));
        }
        for o in documented.difference(&real) {
            problems.push(format!("{page}:{no}: `pseudoku {name}` has no option {o}"));
        }
    }
    // Every command of the binary has its section.
    let top = helps.get(&[]).unwrap();
    for command in subcommands(&top) {
        let path = vec![command.clone()];
        let help = helps.get(&path).unwrap_or_default();
        if help.contains("\nCommands:\n") {
            for sub in subcommands(&help) {
                let path = vec![command.clone(), sub.clone()];
                if !covered.contains(&path) {
                    problems.push(format!("{page}: no section for `pseudoku {command} {sub}`"));
                }
            }
        } else if !covered.contains(&path) {
            problems.push(format!("{page}: no section for `pseudoku {command}`"));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// The subcommands a `--help` text lists, `help` left out.
fn subcommands(help: &str) -> Vec<String> {
    let Some((_, rest)) = help.split_once("\nCommands:\n") else {
        return Vec::new();
    };
    rest.lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect()
}

/// `path` with `.` and `..` resolved, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The link and image targets of a line of prose, inline code left out.
fn targets(line: &str) -> Vec<String> {
    let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    for (i, _) in prose.match_indices("](") {
        if let Some(end) = prose[i + 2..].find(')') {
            out.push(prose[i + 2..i + 2 + end].to_string());
        }
    }
    for (i, _) in prose.match_indices("src=\"") {
        if let Some(end) = prose[i + 5..].find('"') {
            out.push(prose[i + 5..i + 5 + end].to_string());
        }
    }
    out
}

/// The anchors of a page's headings, as GitHub makes them: lower case, spaces to `-`, other
/// punctuation dropped.
fn anchors(page: &Path) -> BTreeSet<String> {
    if page.extension().is_none_or(|e| e != "md") {
        return BTreeSet::new();
    }
    let text = std::fs::read_to_string(page).unwrap();
    let (_, prose) = split(&text);
    prose
        .iter()
        .filter_map(|(_, line)| {
            let title = line.trim_start_matches('#');
            (title.len() < line.len() && title.starts_with(' ')).then_some(title)
        })
        .map(|title| {
            title
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

#[test]
fn relative_links_point_to_files() {
    let root = root();
    let mut problems = Vec::new();
    for page in pages() {
        let (_, prose) = split(&read(&page));
        let from = root.join(&page);
        let dir = from.parent().unwrap();
        for (no, line) in &prose {
            for target in targets(line) {
                let target = target.split_whitespace().next().unwrap_or("");
                if target.is_empty()
                    || target.starts_with('#')
                    || target.contains("://")
                    || target.starts_with("mailto:")
                {
                    continue;
                }
                let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
                let path = normalize(&dir.join(file));
                if !path.exists() {
                    problems.push(format!("{page}:{no}: {target}: no such file"));
                } else if !anchor.is_empty() && !anchors(&path).contains(anchor) {
                    problems.push(format!("{page}:{no}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn shell_lines_are_read_as_a_shell_would() {
    let block = Block {
        info: "sh".into(),
        line: 1,
        lines: vec![
            (2, "pseudoku export --days 7 \\".into()),
            (3, "    --out week   # exit 1: short".into()),
            (
                4,
                "printf '%s\\t#x\\n' \"$P\" | pseudoku hint - > out.txt".into(),
            ),
        ],
    };
    let lines = logical_lines(&block);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].no, 2);
    assert_eq!(lines[0].code, "pseudoku export --days 7 --out week");
    assert_eq!(expected_status(&lines[0].comment), 1);
    assert_eq!(
        commands(&lines[1].code),
        vec![
            vec!["printf".to_string(), "%s\\t#x\\n".into(), "$P".into()],
            vec!["pseudoku".to_string(), "hint".into(), "-".into()],
        ]
    );
    assert_eq!(
        assignments("P=4.....8.5"),
        Some(vec![("P".to_string(), "4.....8.5".to_string())])
    );
    assert_eq!(assignments("pseudoku solve"), None);
    let cargo: Vec<String> = [
        "cargo",
        "run",
        "--release",
        "--",
        "build",
        "--per-level",
        "5",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(pseudoku_args(&cargo).unwrap()[0], "build");
    assert!(names_option("  --per-level <N>\n", "--per-level"));
    assert!(!names_option("  --per-level <N>\n", "--per"));
}

/// The backticked names of `text` (`` `a`, `b` and `c` `` gives a, b, c).
fn backticked(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The guide's module table names exactly the library's top-level modules (a file or a folder
/// of `src/`; the binary's `cli` is described above the table), and its list of integration
/// test modules exactly the files of `tests/it/` (the fixtures `main`, `common` and `browser`
/// apart): a module added, removed or renamed without the guide fails here.
#[test]
fn the_contributing_guide_names_every_module_and_test_file() {
    let root = root();
    let guide = read("docs/contributing.md");
    let stems = |dir: &Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter_map(|p| {
                let name = p.file_name()?.to_str()?.to_string();
                if p.is_dir() {
                    p.join("mod.rs").exists().then_some(name)
                } else {
                    name.strip_suffix(".rs").map(str::to_string)
                }
            })
            .collect()
    };
    let table: BTreeSet<String> = guide
        .lines()
        .skip_while(|l| !l.starts_with("| module | owns |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| backticked(l.split('|').nth(1)?).into_iter().next())
        .collect();
    let mut modules = stems(&root.join("src"));
    for not_a_module in ["lib", "main", "cli"] {
        modules.remove(not_a_module);
    }
    assert_eq!(
        table, modules,
        "the module table of docs/contributing.md against src/"
    );
    let list = guide
        .split_once("one module per subject:")
        .and_then(|(_, rest)| rest.split_once("Shared fixtures"))
        .expect("the guide lists the integration test modules")
        .0;
    let mut files = stems(&root.join("tests/it"));
    for fixture in ["main", "common", "browser"] {
        files.remove(fixture);
    }
    assert_eq!(
        backticked(list),
        files,
        "the test modules of docs/contributing.md against tests/it/"
    );
}

/// The library's public modules (`pub mod` in `src/lib.rs`, the `dev` feature's apart) are
/// exactly those the contributing guide's public surface names, the design page's table of
/// public modules lists and the crate's own documentation links: a public module added,
/// removed or renamed without its docs fails here.
#[test]
fn the_docs_name_every_public_module() {
    let lib = read("src/lib.rs");
    let mut public = BTreeSet::new();
    let mut feature_gated = false;
    for line in lib.lines() {
        if let Some(rest) = line.strip_prefix("pub mod ") {
            let name = rest.trim_end_matches([';', '{', ' ']);
            if !feature_gated {
                public.insert(name.to_string());
            }
        }
        feature_gated = line.starts_with("#[cfg(feature");
    }
    assert!(public.len() >= 18, "{public:?}");
    let guide = read("docs/contributing.md");
    let surface = guide
        .split_once("The library's public surface")
        .and_then(|(_, rest)| rest.split_once("Every module of the crate"))
        .expect("the contributing guide names the public surface")
        .0;
    assert_eq!(
        backticked(surface),
        public,
        "the public modules of docs/contributing.md against src/lib.rs"
    );
    let design = read("docs/design/pipeline.md");
    let table: BTreeSet<String> = design
        .lines()
        .skip_while(|l| !l.starts_with("And these public modules"))
        .skip(4)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| backticked(l.split('|').nth(1)?).into_iter().next())
        .collect();
    assert_eq!(
        table, public,
        "the public modules of docs/design/pipeline.md against src/lib.rs"
    );
    // Each item of the crate's list opens with its module's link ("- [`rate`]: ...", or
    // "and [`results`]: ..." for a second one on a line).
    let linked: BTreeSet<String> = lib
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .filter_map(|l| {
            let item = l
                .strip_prefix("//! - [`")
                .or_else(|| l.strip_prefix("//!   and [`"))?;
            Some(item.split_once("`]")?.0.to_string())
        })
        .collect();
    assert_eq!(
        linked, public,
        "the public modules the crate's documentation (src/lib.rs) links"
    );
}

/// The schema page names every hardest-step code the bank can store, by the name
/// `get --technique` takes.
#[test]
fn the_schema_names_every_hardest_step_code() {
    let page = read("docs/reference/schema.md");
    let missing: Vec<String> = pseudoku::strategies::Strategy::ALL
        .iter()
        .map(|s| format!("| {} | {} |", s.code(), s.name()))
        .filter(|row| !page.contains(row.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/reference/schema.md lacks the rows {missing:?}"
    );
}
