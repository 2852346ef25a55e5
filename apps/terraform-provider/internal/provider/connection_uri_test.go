package provider

import (
	"testing"

	"basalt/terraform-provider-basalt/internal/client"
)

func TestConnectionURIRoundTrip(t *testing.T) {
	// Every character the API allows in a password, URI delimiters included.
	password := `A-z0-9!#$%&()*+,-.:;<=>?@[]^_{|}~`
	endpoint := &client.Endpoint{Type: "private", Host: "10.77.0.12", Port: 6379}
	uri := ConnectionURI(endpoint, "default", password)
	if got := PasswordFromURI(uri); got != password {
		t.Fatalf("PasswordFromURI(%q) = %q, want %q", uri, got, password)
	}
	if want := "redis://default:"; uri[:len(want)] != want {
		t.Errorf("uri %q does not start with %q", uri, want)
	}
}

func TestConnectionURIForms(t *testing.T) {
	cases := []struct {
		endpoint *client.Endpoint
		password string
		want     string
	}{
		{&client.Endpoint{Host: "10.77.0.2", Port: 6379}, "secretsecret", "redis://app:secretsecret@10.77.0.2:6379"},
		{&client.Endpoint{Host: "10.77.0.2", Port: 6380, TLS: true}, "secretsecret", "rediss://app:secretsecret@10.77.0.2:6380"},
		{&client.Endpoint{Host: "fd00::2", Port: 6379}, "secretsecret", "redis://app:secretsecret@[fd00::2]:6379"},
		{nil, "secretsecret", ""},
		{&client.Endpoint{Host: "10.77.0.2", Port: 6379}, "", ""},
	}
	for _, c := range cases {
		if got := ConnectionURI(c.endpoint, "app", c.password); got != c.want {
			t.Errorf("ConnectionURI(%+v) = %q, want %q", c.endpoint, got, c.want)
		}
	}
}
