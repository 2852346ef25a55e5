CREATE TABLE "instance_control_credentials" (
	"instance_id" uuid PRIMARY KEY NOT NULL,
	"password_encrypted" text NOT NULL,
	"next_password_encrypted" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instance_control_credentials" ADD CONSTRAINT "instance_control_credentials_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;