//! Shard builds under a real scheduler: a one-node Slurm cluster on this machine (`munged`,
//! `slurmctld` and `slurmd`, state in a temporary folder) runs the Slurm array script of
//! `docs/design/scaling.md` and its dependent merge, both as the document writes them; the
//! first task is killed and requeued once its shard holds puzzles, and resumes; the merged
//! bank equals one machine's build row for row. Needs root (the daemons) and Debian's
//! `slurm-wlm` and `munge`; skips with a message without them, unless `PSEUDOKU_REQUIRE_SLURM`
//! is set (CI sets it and installs them), which makes a missing cluster a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The output of `sh -c script` with `env`, which must succeed.
fn sh(script: &str, env: &[(&str, String)]) -> String {
    crate::common::succeed(
        Command::new("bash")
            .args(["-c", script])
            .envs(env.iter().map(|(k, v)| (k, v))),
        script,
    )
}

/// The `sh no_run` blocks of the Slurm section of the scaling document: the array script and
/// the commands that submit it and the merge.
fn documented() -> (String, String) {
    let doc = include_str!("../../docs/design/scaling.md");
    let section = &doc[doc.find("**Slurm**").expect("a Slurm section")..];
    let mut blocks = section
        .split("```sh no_run\n")
        .skip(1)
        .map(|b| b.split("```").next().expect("a closed block").to_string());
    (blocks.next().unwrap(), blocks.next().unwrap())
}

/// A one-node cluster: its configuration file; the daemons stop when it is dropped.
struct Cluster {
    conf: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        // munged, as the munge user, unless one answers already.
        if Command::new("sh")
            .args(["-c", "munge -n | unmunge"])
            .output()
            .map_or(true, |o| !o.status.success())
        {
            sh(
                "mkdir -p /run/munge && chown munge:munge /run/munge && \
                 su -s /bin/sh munge -c /usr/sbin/munged",
                &[],
            );
        }
        let host = sh("hostname -s", &[]);
        let state = dir.join("slurm");
        std::fs::create_dir_all(&state).unwrap();
        let s = state.display();
        // 32 CPUs as the document's script asks (--cpus-per-task=32); the node's real cores
        // are fewer, which `config_overrides` accepts: the tasks run one at a time.
        let conf = format!(
            "ClusterName=pseudoku\nSlurmctldHost={host}\nSlurmctldPort={}\nSlurmdPort={}\n\
             SlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\nSwitchType=switch/none\nMpiDefault=none\n\
             StateSaveLocation={s}/state\nSlurmdSpoolDir={s}/spool\n\
             SlurmctldPidFile={s}/slurmctld.pid\nSlurmdPidFile={s}/slurmd.pid\n\
             SlurmctldLogFile={s}/slurmctld.log\nSlurmdLogFile={s}/slurmd.log\n\
             SlurmdParameters=config_overrides\nReturnToService=2\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n\
             NodeName={host} CPUs=32 State=UNKNOWN\n\
             PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            crate::common::free_port(),
            crate::common::free_port()
        );
        std::fs::create_dir_all(state.join("state")).unwrap();
        std::fs::create_dir_all(state.join("spool")).unwrap();
        let path = state.join("slurm.conf");
        std::fs::write(&path, conf).unwrap();
        let cluster = Cluster { conf: path };
        let env = cluster.env();
        sh("/usr/sbin/slurmctld -f \"$SLURM_CONF\"", &env);
        sh("/usr/sbin/slurmd -f \"$SLURM_CONF\"", &env);
        let start = Instant::now();
        while sh("sinfo -h -o %t", &env) != "idle" {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the node never came up: {}",
                std::fs::read_to_string(state.join("slurmctld.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        cluster
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        vec![("SLURM_CONF", self.conf.display().to_string())]
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let dir = self.conf.parent().unwrap();
        for pid in ["slurmd.pid", "slurmctld.pid"] {
            if let Ok(pid) = std::fs::read_to_string(dir.join(pid)) {
                let _ = Command::new("kill").arg(pid.trim()).status();
            }
        }
    }
}

/// Puzzles a level: enough that a task runs for seconds, so that it can be killed midway.
const PER_LEVEL: &str = "5000";

#[test]
fn the_documented_slurm_array_resumes_a_requeued_task_and_builds_the_same_bank_as_one_machine() {
    let tools = ["munged", "slurmctld", "slurmd", "sbatch"];
    let root = crate::common::is_root();
    if !root
        || !tools
            .iter()
            .all(|t| crate::common::find_program(&[t]).is_some())
    {
        assert!(
            std::env::var_os("PSEUDOKU_REQUIRE_SLURM").is_none(),
            "PSEUDOKU_REQUIRE_SLURM is set, but Slurm cannot run here (root: {root})"
        );
        crate::common::skipping(
            "the Slurm tests",
            "no Slurm (apt-get install slurm-wlm munge; as root)",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cluster = Cluster::start(dir.path());
    let (script, submit) = documented();
    let work = dir.path().join("work");
    let scratch = dir.path().join("scratch");
    let local = dir.path().join("local");
    for d in [&work, &scratch.join("bank"), &local] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(work.join("shards.sh"), script).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("pseudoku");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    let mut env = cluster.env();
    env.extend([
        ("PATH", path),
        ("SCRATCH", scratch.display().to_string()),
        ("TMPDIR", local.display().to_string()),
        ("PER_LEVEL", PER_LEVEL.to_string()),
    ]);
    // Three tasks in place of the document's 16 (its array, not the merge's job).
    let three = "sbatch() { case \"$*\" in *shards.sh*) command sbatch --array=1-3 \"$@\";; \
                 *) command sbatch \"$@\";; esac; }";
    sh(&format!("cd {} && {three}\n{submit}", work.display()), &env);
    // The first task (of about 20,000 puzzles), killed once its shard holds puzzles, and requeued: it resumes.
    let first = local.join("shard-1.db");
    let start = Instant::now();
    let stored = |db: &Path| -> i64 {
        rusqlite::Connection::open(db)
            .and_then(|c| c.query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0)))
            .unwrap_or(0)
    };
    while !first.exists() || stored(&first) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "task 1 never stored a puzzle"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let array = sh("squeue -h -n pseudoku-shard -o %F | head -1", &env);
    sh(&format!("scontrol requeue {array}_1"), &env);
    let merged = scratch.join("bank/bank.db");
    let start = Instant::now();
    while !sh("squeue -h | wc -l", &env).eq("0") {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the jobs did not finish: {}",
            sh("squeue", &env)
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let restarts = sh(
        &format!("scontrol show job {array}_1 | grep -o 'Restarts=[0-9]*'"),
        &env,
    );
    assert_eq!(restarts, "Restarts=1");
    assert!(
        merged.exists(),
        "no merged bank: {}",
        sh(&format!("ls -R {}", dir.path().display()), &[])
    );
    let one = dir.path().join("one.db");
    crate::common::pseudoku()
        .args(["build", "--per-level", PER_LEVEL, "--seed", "2026", "--db"])
        .arg(&one)
        .assert()
        .success();
    let rows = |db: &Path| -> Vec<(Vec<u8>, i64)> {
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn
            .prepare("SELECT puzzle, level FROM puzzles ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    };
    let (a, b) = (rows(&merged), rows(&one));
    assert_eq!(a.len(), 4 * PER_LEVEL.parse::<usize>().unwrap());
    if a != b {
        let first = a.iter().zip(&b).position(|(x, y)| x != y);
        panic!(
            "the merged bank differs from one machine's build (first at row {first:?}); \
             the jobs' output:\n{}",
            sh(&format!("tail -n 5 {}/*.out", work.display()), &[])
        );
    }
}
