package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/viper"
)

// TestDockerComposePort: docker-compose.yml publishes PostgreSQL on a host
// port other than 5432, which the cluster of Debian's postgresql package
// (the README's install step) already holds, and the README's, the
// compose file's and the default config's example URLs use that port.
func TestDockerComposePort(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	v := viper.New()
	v.SetConfigFile(filepath.Join(root, "docker-compose.yml"))
	if err := v.ReadInConfig(); err != nil {
		t.Fatal(err)
	}
	ports := v.GetStringSlice("services.postgres.ports")
	if len(ports) != 1 {
		t.Fatalf("services.postgres.ports = %q, want one mapping", ports)
	}
	// [ADDRESS:]HOST:CONTAINER
	parts := strings.Split(ports[0], ":")
	if len(parts) < 2 || parts[len(parts)-1] != "5432" {
		t.Fatalf("port mapping %q: want HOST:5432", ports[0])
	}
	host := parts[len(parts)-2]
	if host == "5432" || host == "" {
		t.Fatalf("port mapping %q: the host port must not be 5432 (the Debian cluster's)", ports[0])
	}
	if len(parts) == 3 && parts[0] != "127.0.0.1" {
		t.Errorf("port mapping %q: publish on 127.0.0.1 only (the password is in the file)", ports[0])
	}
	want := fmt.Sprintf("postgres://draughtsdb:draughtsdb@localhost:%s/draughtsdb", host)
	url := regexp.MustCompile(`postgres://[^\s]*@localhost:\d+/draughtsdb`)
	for _, f := range []string{"README.md", "docker-compose.yml", filepath.Join("configs", "draughtsdb.yaml")} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		found := url.FindAllString(string(b), -1)
		if len(found) == 0 {
			t.Errorf("%s: no example URL of the compose server", f)
		}
		for _, u := range found {
			if u != want {
				t.Errorf("%s: %s, want %s (docker-compose.yml publishes host port %s)", f, u, want, host)
			}
		}
	}
}
