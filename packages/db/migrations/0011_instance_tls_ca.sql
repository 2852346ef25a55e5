ALTER TABLE "instance_control_credentials" ADD COLUMN "tls_ca_certificate" text;--> statement-breakpoint
ALTER TABLE "instance_control_credentials" ADD COLUMN "tls_ca_key_encrypted" text;