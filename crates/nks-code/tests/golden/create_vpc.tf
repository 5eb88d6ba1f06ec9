resource "nirvana_networking_vpc" "edge" {
  name        = "edge"
  project_id  = "project-1"
  region      = "us-sva-2"
  subnet_name = "edge-subnet"
}
