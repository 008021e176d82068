//! The Python package: its wheel (built by maturin from `python/`) installed into a fresh
//! virtualenv, and its pytest suite (`python/tests`) run against it. CI builds the wheel before
//! the tests (`$PSEUDOKU_WHEEL_DIR`) and sets `PSEUDOKU_REQUIRE_PYTHON`; elsewhere the test
//! builds the wheel itself when maturin is on the PATH (or in `$PSEUDOKU_PYTHON_TOOLS/bin`),
//! and skips with a message when maturin, Python's venv or the package index is missing.

use crate::common::find_program;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Skips (`None`) with a message, or fails when the Python test is required.
fn unavailable(why: &str) -> Option<()> {
    assert!(
        std::env::var_os("PSEUDOKU_REQUIRE_PYTHON").is_none(),
        "{why}, and PSEUDOKU_REQUIRE_PYTHON is set"
    );
    crate::common::skipping("the Python package's test", why);
    None
}

/// The output of `cmd` when it succeeds, or its failure as text.
fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(format!("{cmd:?} failed:\n{text}"))
    }
}

/// The wheel: CI's, or one built now into a target folder of its own (the tests' build holds
/// the usual one).
fn wheel(root: &Path, scratch: &Path) -> Result<Option<PathBuf>, String> {
    let dir = match std::env::var_os("PSEUDOKU_WHEEL_DIR") {
        Some(dir) => root.join(dir),
        None => {
            let tools = std::env::var_os("PSEUDOKU_PYTHON_TOOLS")
                .map(|t| root.join(t).join("bin").join("maturin"));
            let Some(maturin) = tools
                .filter(|m| m.is_file())
                .or_else(|| find_program(&["maturin"]))
            else {
                return Ok(None);
            };
            let target = PathBuf::from(env!("CARGO_BIN_EXE_pseudoku"))
                .parent()
                .and_then(Path::parent)
                .expect("the target folder")
                .join("python-wheel");
            let out = scratch.join("wheels");
            run(Command::new(maturin)
                .args(["build", "--profile", "release-tests", "--out"])
                .arg(&out)
                .arg("--manifest-path")
                .arg(root.join("python/Cargo.toml"))
                .env("CARGO_TARGET_DIR", target))?;
            out
        }
    };
    let found = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"));
    found
        .map(Some)
        .ok_or_else(|| format!("no wheel in {}", dir.display()))
}

#[test]
fn the_wheel_installs_in_a_fresh_virtualenv_and_passes_its_pytest_suite() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().unwrap();
    let Some(python) = find_program(&["python3", "python"]) else {
        unavailable("no python3");
        return;
    };
    let wheel = match wheel(&root, scratch.path()) {
        Ok(Some(w)) => w,
        Ok(None) => {
            unavailable("no maturin (pip install maturin)");
            return;
        }
        Err(why) => panic!("building the wheel: {why}"),
    };
    let venv = scratch.path().join("venv");
    if let Err(why) = run(Command::new(&python).args(["-m", "venv"]).arg(&venv)) {
        unavailable(&format!("no virtualenv: {why}"));
        return;
    }
    let bin = venv.join("bin");
    if let Err(why) = run(Command::new(bin.join("pip"))
        .args(["install", "--quiet", "--disable-pip-version-check"])
        .arg(&wheel)
        .arg("pytest"))
    {
        unavailable(&format!(
            "the wheel and pytest could not be installed: {why}"
        ));
        return;
    }
    // Run from elsewhere, so that only the installed package can be imported.
    let out = run(Command::new(bin.join("python"))
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(root.join("python/tests"))
        .current_dir(scratch.path()))
    .unwrap_or_else(|why| panic!("{why}"));
    assert!(out.contains(" passed"), "{out}");
    assert!(!out.contains(" failed") && !out.contains(" error"), "{out}");
    // The package is typed: its stubs and marker are installed beside it.
    let site = run(Command::new(bin.join("python")).args([
        "-c",
        "import pseudoku, os; print(os.path.dirname(pseudoku.__file__))",
    ]))
    .unwrap();
    let package = PathBuf::from(site.trim());
    assert!(
        package.join("__init__.pyi").is_file(),
        "{}",
        package.display()
    );
    assert!(package.join("py.typed").is_file(), "{}", package.display());
}
