//! Each format for each form, held three ways: golden files pin the text
//! (`UPDATE_GOLDEN=1 cargo test -p nks-code` writes them again); real tools
//! check it (gofmt; the Go built and vetted, the TypeScript type-checked in strict
//! mode, against Nirvana's own SDKs; bash); and the cURL runs, against stub
//! `curl` and `sleep`, to show that what it sends is the very body Apply sends,
//! hostile names included.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use nks_code::{write, Format};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn extension(format: Format) -> &'static str {
    match format {
        Format::Curl => "sh",
        Format::Go => "go",
        Format::TypeScript => "ts",
        Format::Terraform => "tf",
    }
}

/// Every snippet, written under a fresh directory of the test's own (`test`: tests
/// run at once, and two writing one directory would race) as
/// `<form>[-hostile]/main.<ext>`.
fn written(format: Format, test: &str) -> (PathBuf, Vec<PathBuf>) {
    let dir = std::env::temp_dir().join(format!(
        "nks-code-{test}-{}-{}",
        extension(format),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let mut files = vec![];
    for hostile in [false, true] {
        for (form, change) in common::changes(hostile) {
            let sub = dir.join(if hostile {
                format!("{form}-hostile")
            } else {
                form.to_string()
            });
            std::fs::create_dir_all(&sub).unwrap();
            let file = sub.join(format!("main.{}", extension(format)));
            std::fs::write(&file, write(&change, format, common::BASE)).unwrap();
            files.push(file);
        }
    }
    (dir, files)
}

fn tool(name: &str) -> Command {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output();
    assert!(
        found.map(|o| o.status.success()).unwrap_or(false),
        "{name} is not installed: scripts/install-tools.sh installs it"
    );
    Command::new(name)
}

#[test]
fn each_format_of_each_form_is_as_pinned() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut differ = vec![];
    for (form, change) in common::changes(false) {
        for format in Format::ALL {
            let path = golden_dir().join(format!("{form}.{}", extension(format)));
            let text = write(&change, format, common::BASE);
            if update {
                std::fs::create_dir_all(golden_dir()).unwrap();
                std::fs::write(&path, &text).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                differ.push(path.display().to_string());
            }
        }
    }
    assert!(
        differ.is_empty(),
        "not as pinned (UPDATE_GOLDEN=1 writes them): {differ:#?}"
    );
}

#[test]
fn go_is_as_gofmt_writes_it() {
    let (dir, files) = written(Format::Go, "gofmt");
    let out = tool("gofmt")
        .arg("-l")
        .arg("-e")
        .arg(&dir)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && listed.is_empty() && errors.is_empty(),
        "gofmt: {listed}{errors}"
    );
    assert_eq!(files.len(), 2 * common::changes(false).len());
}

/// `../shared/` beside the checkout (CI lays it there too), or `NKS_SHARED`.
fn shared() -> PathBuf {
    std::env::var_os("NKS_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    )
}

/// Every Go snippet is a program that builds and vets against Nirvana's own Go
/// SDK v1.94.2 (`shared/sdk/go`, offline): one module of the snippets, each its
/// own `main` package, `go vet ./...` type-checks and vets them all.
#[test]
fn go_builds_and_vets_against_the_sdk() {
    let (dir, files) = written(Format::Go, "go-vet");
    let sdk = shared().join("sdk/go");
    let local = |module: &str, version: &str| {
        let folder = module.rsplit('/').next().unwrap();
        format!(
            "\t{module} => {}\n",
            sdk.join(format!("{folder}@{version}")).display()
        )
    };
    let go_mod = format!(
        "module snippets\n\ngo 1.22\n\nrequire github.com/nirvana-labs/nirvana-go v1.94.2\n\nreplace (\n{}{}{}{}{})\n",
        local("github.com/nirvana-labs/nirvana-go", "v1.94.2"),
        local("github.com/tidwall/gjson", "v1.18.0"),
        local("github.com/tidwall/sjson", "v1.2.5"),
        local("github.com/tidwall/match", "v1.1.1"),
        local("github.com/tidwall/pretty", "v1.2.1"),
    );
    std::fs::write(dir.join("go.mod"), go_mod).unwrap();
    let out = tool("go")
        .args(["vet", "./..."])
        .current_dir(&dir)
        .env("GOPROXY", "off")
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "local")
        .env("GOTELEMETRY", "off")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "go vet: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(files.len(), 2 * common::changes(false).len());
}

/// Every TypeScript snippet type-checks in strict mode against Nirvana's own
/// TypeScript SDK 1.98.1, from its source (`shared/sdk/typescript`).
#[test]
fn typescript_type_checks_against_the_sdk() {
    let (_, files) = written(Format::TypeScript, "ts-check");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/ts-check.mjs");
    let out = tool("node")
        .arg(script)
        .args(&files)
        .env("NKS_SHARED", shared())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn curl_is_bash_and_sends_exactly_the_body_apply_sends() {
    let (dir, _) = written(Format::Curl, "curl");
    // Stubs: `curl` answers every request with a done operation and keeps the
    // body it was given; `sleep` is never needed (the first read is done).
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let stub = "#!/usr/bin/env bash\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = --data ]; then printf '%s\\n' \"$2\" >> \"$SENT\"; shift; fi\n  shift\ndone\n\
                printf '{\"id\":\"op-1\",\"status\":\"done\",\"resource_id\":\"made-1\"}'\n";
    std::fs::write(bin.join("curl"), stub).unwrap();
    std::fs::write(bin.join("sleep"), "#!/bin/sh\nexit 9\n").unwrap();
    for name in ["curl", "sleep"] {
        tool("chmod")
            .arg("+x")
            .arg(bin.join(name))
            .status()
            .unwrap();
    }
    tool("jq").arg("--version").output().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for hostile in [false, true] {
        for (form, change) in common::changes(hostile) {
            let script = dir
                .join(if hostile {
                    format!("{form}-hostile")
                } else {
                    form.to_string()
                })
                .join("main.sh");
            let syntax = tool("bash").arg("-n").arg(&script).output().unwrap();
            assert!(
                syntax.status.success(),
                "{form}: {}",
                String::from_utf8_lossy(&syntax.stderr)
            );
            let sent = script.with_file_name("sent.txt");
            let run = Command::new("bash")
                .arg(&script)
                .env("PATH", &path)
                .env("SENT", &sent)
                .env("NIRVANA_LABS_API_KEY", "test-key")
                .output()
                .unwrap();
            assert!(
                run.status.success(),
                "{form} (hostile {hostile}): {}",
                String::from_utf8_lossy(&run.stderr)
            );
            let bodies: Vec<serde_json::Value> = std::fs::read_to_string(&sent)
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            // What Apply sends, step by step; an id an earlier step made is that
            // step's resource_id (the stub's "made-1").
            let expected: Vec<serde_json::Value> = change
                .steps
                .iter()
                .filter_map(|s| s.mutation.body())
                .map(|b| {
                    let mut v: serde_json::Value = serde_json::from_str(&b).unwrap();
                    if v.get("vpc_id") == Some(&serde_json::json!("")) {
                        v["vpc_id"] = "made-1".into();
                    }
                    v
                })
                .collect();
            assert_eq!(bodies, expected, "{form} (hostile {hostile})");
            assert!(
                !String::from_utf8_lossy(&run.stdout).contains("uid="),
                "{form}: a name ran a command"
            );
        }
    }
}

#[test]
fn no_snippet_holds_a_key() {
    for (form, change) in common::changes(true) {
        for format in Format::ALL {
            let text = write(&change, format, common::BASE);
            assert!(
                !text.contains("test-key") && !text.contains("Bearer ey"),
                "{form}"
            );
            if format != Format::Terraform {
                assert!(
                    text.contains("NIRVANA_LABS_API_KEY"),
                    "{form} {format:?} names the key's variable"
                );
                assert!(
                    text.contains("NIRVANA_LABS_BASE_URL") && text.contains(common::BASE),
                    "{form} {format:?}"
                );
            }
        }
    }
}
