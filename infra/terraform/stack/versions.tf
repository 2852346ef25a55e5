terraform {
  required_version = ">= 1.5.0"

  # State lives in PostgreSQL, one workspace per instance. The connection string comes
  # from PG_CONN_STR and the schema from -backend-config at `terraform init`.
  backend "pg" {}
}
