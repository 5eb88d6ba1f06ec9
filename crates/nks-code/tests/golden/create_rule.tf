resource "nirvana_networking_firewall_rule" "https" {
  vpc_id              = "vpc-1"
  name                = "https"
  protocol            = "tcp"
  source_address      = "0.0.0.0/0"
  destination_address = "10.0.0.0/24"
  destination_ports   = ["443", "8000-8080"]
  tags                = ["edge"]
}
