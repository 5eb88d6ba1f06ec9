# A node is not a Terraform resource: the provider sets a pool's node_count,
# and which node goes is the platform's choice. Delete this node with cURL, Go
# or TypeScript, or lower node_count and let the platform choose.
