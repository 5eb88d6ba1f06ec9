# Terraform updates nirvana_networking_firewall_rule.https-2 in place: name, protocol, destination_ports.
resource "nirvana_networking_firewall_rule" "https-2" {
  vpc_id              = "vpc-1"
  name                = "https-2"
  protocol            = "udp"
  source_address      = "0.0.0.0/0"
  destination_address = "10.0.0.0/24"
  destination_ports   = ["53"]
}
