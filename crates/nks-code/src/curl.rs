//! cURL: the request as Apply sends it (method, path, JSON body), then the
//! guide's loop on `GET /v1/operations/{id}` until `done` or `failed`.

use crate::quote::{self, shell};
use crate::{from_earlier, made, Change};
use nks_api::mutation::{Mutation, Verb};

pub fn write(change: &Change, base_url: &str) -> String {
    let mut out = String::new();
    out.push_str("#!/usr/bin/env bash\n");
    out.push_str(
        "# The key is read from NIRVANA_LABS_API_KEY, the API from NIRVANA_LABS_BASE_URL.\n",
    );
    out.push_str("set -euo pipefail\n");
    out.push_str(&format!("default_base={}\n", shell(base_url)));
    out.push_str("base=${NIRVANA_LABS_BASE_URL:-$default_base}\n");
    out.push_str(
        "auth=\"Authorization: Bearer ${NIRVANA_LABS_API_KEY:?set NIRVANA_LABS_API_KEY}\"\n\n",
    );
    out.push_str(WAIT);
    for (index, step) in change.steps.iter().enumerate() {
        let m = &step.mutation;
        let (what, var) = made(m);
        out.push_str(&format!("\n# {}.\n", quote::comment(m.call())));
        let earlier = from_earlier(&change.steps, index);
        out.push_str(&format!(
            "op=$(curl -sS --fail-with-body -X {} \"$base{}\" \\\n",
            m.verb().as_str(),
            path(m, earlier)
        ));
        out.push_str("  -H \"$auth\"");
        match (m.body(), earlier.filter(|(field, _)| *field != "cluster_id")) {
            (Some(body), Some((field, earlier))) => out.push_str(&format!(
                " -H \"Content-Type: application/json\" \\\n  --data \"$(jq -c --arg id \"${earlier}\" '.{field} = $id' <<<{})\")\n",
                shell(&body)
            )),
            (Some(body), None) => out.push_str(&format!(
                " -H \"Content-Type: application/json\" \\\n  --data {})\n",
                shell(&body)
            )),
            (None, _) => out.push_str(")\n"),
        }
        out.push_str(&format!("{var}=$(wait_for \"$(jq -r .id <<<\"$op\")\")\n"));
        let done = match m.verb() {
            Verb::Post => "made",
            Verb::Patch => "changed",
            Verb::Delete => "deleted",
        };
        out.push_str(&format!("echo \"{what} {done}: ${var}\"\n"));
    }
    out
}

/// The path; a pool made in a cluster an earlier step made names that cluster
/// by its variable (a marker id, percent-encoded, is swapped for it).
fn path(m: &Mutation, earlier: Option<(&str, &str)>) -> String {
    match (m, earlier) {
        (Mutation::CreatePool { body, .. }, Some((_, var))) => Mutation::CreatePool {
            cluster_id: "\u{1}".into(),
            body: body.clone(),
        }
        .path()
        .replace("%01", &format!("${var}")),
        _ => m.path(),
    }
}

const WAIT: &str = r#"# Follows an operation until it is done or failed (pending, running and
# unknown are not terminal), then prints the id of the resource it changed.
wait_for() {
  local op
  while :; do
    op=$(curl -sS --fail-with-body "$base/v1/operations/$1" -H "$auth")
    case $(jq -r .status <<<"$op") in
      done) jq -r .resource_id <<<"$op"; return ;;
      failed) echo "operation $1 failed" >&2; return 1 ;;
    esac
    sleep 5
  done
}
"#;
