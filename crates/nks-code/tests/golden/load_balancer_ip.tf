# A load balancer is not a Terraform resource: Kubernetes makes it for a Service.
# Turn its public IP on or off with cURL, Go or TypeScript.
