//! What turning a load balancer's public IP on or off does, in the words its
//! confirm shows. Kept here so the wording is tested without a browser: a
//! confirm that does not say what becomes reachable is a click-through.

/// The load balancer as a person knows it: the Kubernetes Service behind it.
pub fn service_name(namespace: &str, service: &str) -> String {
    if namespace.is_empty() {
        service.to_string()
    } else {
        format!("{namespace}/{service}")
    }
}

/// The consequence of setting `public_ip_enabled` to `enable`, for the Service
/// `namespace/service` whose addresses are `public_ip` and `private_ip` now.
///
/// Turning it on exposes every port the Service listens on, to anyone, with the
/// VPC's firewall rules as the only filter (the platform adds none for it, and
/// whether they apply to a load balancer's public address is not documented, so
/// the text does not promise they do). Turning it off cuts every client that
/// reaches it over the internet, and nothing says the address is kept for later.
pub fn public_ip_change(
    namespace: &str,
    service: &str,
    enable: bool,
    public_ip: Option<&str>,
    private_ip: Option<&str>,
) -> String {
    let name = service_name(namespace, service);
    let private = super::display::address(private_ip);
    if enable {
        format!(
            "The Service {name} gets a public IP address and becomes reachable from the internet: \
             anyone on the internet can connect to every port it exposes, as far as the VPC's firewall \
             rules let them through. Its private address ({private}) stays as it is."
        )
    } else {
        let public = match super::display::assigned(public_ip) {
            None => "its public address".to_string(),
            Some(ip) => format!("its public address {ip}"),
        };
        format!(
            "The Service {name} loses {public}: clients on the internet stop reaching it, and the address \
             may not come back when the public IP is turned on again. Traffic from inside the VPC \
             to its private address ({private}) continues."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_on_says_what_becomes_reachable_from_the_internet() {
        let text = public_ip_change("payments", "payments-api", true, None, Some("10.20.0.248"));
        assert!(text.contains("payments/payments-api"), "{text}");
        assert!(text.contains("reachable from the internet"), "{text}");
        assert!(text.contains("every port"), "{text}");
        assert!(text.contains("10.20.0.248"), "{text}");
    }

    #[test]
    fn turning_off_says_which_address_stops_answering() {
        let text = public_ip_change(
            "ingress-nginx",
            "ingress-nginx-controller",
            false,
            Some("203.0.113.41"),
            Some("10.20.0.247"),
        );
        assert!(
            text.contains("loses its public address 203.0.113.41"),
            "{text}"
        );
        assert!(text.contains("stop reaching it"), "{text}");
        assert!(text.contains("10.20.0.247"), "{text}");
    }

    #[test]
    fn an_address_not_yet_assigned_is_named_as_such() {
        let text = public_ip_change("", "web", false, Some(""), None);
        assert!(
            text.starts_with("The Service web loses its public address:"),
            "{text}"
        );
        assert!(text.contains("(not yet assigned)"), "{text}");
    }
}
