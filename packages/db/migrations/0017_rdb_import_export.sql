CREATE TYPE "public"."rdb_export_status" AS ENUM('pending', 'running', 'succeeded', 'failed');--> statement-breakpoint
ALTER TYPE "public"."operation_type" ADD VALUE 'rdb_export';--> statement-breakpoint
CREATE TABLE "rdb_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"backup_id" uuid NOT NULL,
	"status" "rdb_export_status" DEFAULT 'pending' NOT NULL,
	"operation_id" uuid,
	"object_key" text,
	"size_bytes" bigint,
	"error" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rdb_imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"object_key" text NOT NULL,
	"data_key_encrypted" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rdb_exports" ADD CONSTRAINT "rdb_exports_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rdb_exports" ADD CONSTRAINT "rdb_exports_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rdb_exports" ADD CONSTRAINT "rdb_exports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rdb_imports" ADD CONSTRAINT "rdb_imports_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rdb_imports" ADD CONSTRAINT "rdb_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rdb_exports_expires_idx" ON "rdb_exports" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "rdb_imports_expires_idx" ON "rdb_imports" USING btree ("expires_at");