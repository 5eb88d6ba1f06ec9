//! "Export to Terraform": a cluster with its VPC, the VPC's firewall rules and
//! the cluster's pools, or a VPC with its rules, read now and written as one
//! `main.tf` with an import block per resource.

use leptos::prelude::*;
use nks_api::types::Pool;

use super::source::{Export, ExportSource};
use super::view::CodeBlock;
use crate::api::client::Client;
use crate::app::components::ErrorView;
use crate::rules::outcome::ApiError;

/// Reads what is exported and writes it.
/// (file name, text, whether its pools leave node_count to the autoscaler).
async fn exported(client: Client, what: Export) -> Result<(String, String, bool), ApiError> {
    use futures_util::future::try_join3;
    match what {
        Export::Cluster(id) => {
            let cluster = client.cluster(&id).await?;
            let (pools, vpc, rules) = try_join3(
                client.pools::<Pool>(&id),
                client.vpc(&cluster.vpc_id),
                client.firewall_rules(&cluster.vpc_id),
            )
            .await?;
            let text = nks_code::export::cluster(&cluster, &pools, Some((&vpc, &rules)));
            let autoscaled = cluster.autoscaling && !pools.is_empty();
            Ok((format!("{}.tf", cluster.name), text, autoscaled))
        }
        Export::Vpc(id) => {
            let (vpc, rules) =
                futures_util::future::try_join(client.vpc(&id), client.firewall_rules(&id)).await?;
            let text = nks_code::export::vpc(&vpc, &rules);
            Ok((format!("{}.tf", vpc.name), text, false))
        }
    }
}

/// The export, read when first shown; Retry after a failed read.
#[component]
pub fn ExportView() -> impl IntoView {
    let ExportSource(what) = expect_context::<ExportSource>();
    let client = expect_context::<Client>();
    let read = LocalResource::new(move || exported(client.clone(), what.get()));
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Reading the resources…"</p> }>
            {move || read.get().map(|result| match result {
                Err(error) => view! { <ErrorView error retry=move |_| read.refetch() /> }.into_any(),
                Ok((name, text, autoscaled)) => view! {
                    <p class="muted">
                        "With Terraform 1.5 or later, "<code>"terraform plan"</code>" shows each import and no change; "
                        <code>"terraform apply"</code>" adopts them."
                    </p>
                    {autoscaled.then(|| view! {
                        <p class="muted">
                            "The cluster autoscales, so each pool ignores changes to "<code>"node_count"</code>
                            ": the autoscaler moves it, and applying the count written here after it moved would "
                            "scale the pool down by hand, terminating nodes without drain."
                        </p>
                    })}
                    <CodeBlock text label="Terraform export".to_string() file=(safe_file_name(&name), "text/plain") />
                }.into_any(),
            })}
        </Suspense>
    }
}

/// A download's name from a resource's name: no path separators or controls.
fn safe_file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect()
}
