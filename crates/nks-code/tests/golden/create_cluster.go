package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/nirvana-labs/nirvana-go"
	"github.com/nirvana-labs/nirvana-go/nks"
	"github.com/nirvana-labs/nirvana-go/operations"
	"github.com/nirvana-labs/nirvana-go/option"
	"github.com/nirvana-labs/nirvana-go/shared"
)

// The key is read from NIRVANA_LABS_API_KEY, the API from NIRVANA_LABS_BASE_URL.
func main() {
	ctx := context.Background()
	baseURL := os.Getenv("NIRVANA_LABS_BASE_URL")
	if baseURL == "" {
		baseURL = "http://127.0.0.1:8080"
	}
	client := nirvana.NewClient(option.WithBaseURL(baseURL))

	// Create cluster.
	op, err := client.NKS.Clusters.New(ctx, nks.ClusterNewParams{
		Autoscaling:       true,
		KubernetesVersion: "1.31",
		Name:              "prod",
		ProjectID:         "project-1",
		Region:            shared.RegionNameUsSva2,
		VPCID:             "vpc-1",
		Tags:              []string{"production"},
	})
	if err != nil {
		log.Fatalf("create cluster: %v", err)
	}
	clusterID, err := waitFor(ctx, client, op.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("cluster made:", clusterID)
}

// waitFor follows an operation until it is done or failed (pending, running and
// unknown are not terminal) and returns the id of the resource it changed.
func waitFor(ctx context.Context, client nirvana.Client, id string) (string, error) {
	ticker := time.NewTicker(5 * time.Second)
	defer ticker.Stop()
	for {
		op, err := client.Operations.Get(ctx, id)
		if err != nil {
			return "", fmt.Errorf("polling operation %s: %w", id, err)
		}
		switch op.Status {
		case operations.OperationStatusDone:
			return op.ResourceID, nil
		case operations.OperationStatusFailed:
			return "", fmt.Errorf("operation %s failed", id)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-ticker.C:
		}
	}
}
