package provider

import (
	"net"
	"net/url"
	"strconv"

	"basalt/terraform-provider-basalt/internal/client"
)

// ConnectionURI is redis://user:password@host:port (rediss:// on a TLS endpoint), the form
// redis-cli -u and every Redis client library accept. Empty when there is no endpoint yet or
// no password is known (after an import: passwords are never read back from the API).
func ConnectionURI(endpoint *client.Endpoint, username, password string) string {
	if endpoint == nil || endpoint.Host == "" || password == "" {
		return ""
	}
	scheme := "redis"
	if endpoint.TLS {
		scheme = "rediss"
	}
	u := url.URL{
		Scheme: scheme,
		User:   url.UserPassword(username, password),
		Host:   net.JoinHostPort(endpoint.Host, strconv.FormatInt(endpoint.Port, 10)),
	}
	return u.String()
}

// PasswordFromURI is the password inside a connection URI built by ConnectionURI, or "".
func PasswordFromURI(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.User == nil {
		return ""
	}
	password, _ := u.User.Password()
	return password
}
