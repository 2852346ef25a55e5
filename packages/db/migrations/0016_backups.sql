CREATE TYPE "public"."backup_kind" AS ENUM('manual', 'automatic', 'final');--> statement-breakpoint
CREATE TYPE "public"."backup_status" AS ENUM('pending', 'running', 'succeeded', 'failed', 'deleting');--> statement-breakpoint
ALTER TYPE "public"."operation_type" ADD VALUE 'backup';--> statement-breakpoint
CREATE TABLE "archived_segments" (
	"instance_id" uuid NOT NULL,
	"timeline" integer NOT NULL,
	"segment" bigint NOT NULL,
	"object_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"first_lsn" bigint NOT NULL,
	"last_lsn" bigint NOT NULL,
	"first_time" timestamp with time zone,
	"last_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "archived_segments_instance_id_timeline_segment_pk" PRIMARY KEY("instance_id","timeline","segment")
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"kind" "backup_kind" NOT NULL,
	"status" "backup_status" DEFAULT 'pending' NOT NULL,
	"operation_id" uuid,
	"timeline" integer,
	"end_lsn" bigint,
	"end_time" timestamp with time zone,
	"segments" integer DEFAULT 0 NOT NULL,
	"segment_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"uploaded_bytes" bigint DEFAULT 0 NOT NULL,
	"manifest_key" text,
	"expires_at" timestamp with time zone,
	"error" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "instance_archives" (
	"instance_id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"data_key_encrypted" text NOT NULL,
	"timeline" integer DEFAULT 1 NOT NULL,
	"source_node" text,
	"archived_time" timestamp with time zone,
	"archived_lsn" bigint,
	"checked_at" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "backup_window" text DEFAULT '03:00-04:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "backup_retention_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "restored_from" jsonb;--> statement-breakpoint
ALTER TABLE "archived_segments" ADD CONSTRAINT "archived_segments_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_archives" ADD CONSTRAINT "instance_archives_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_archives" ADD CONSTRAINT "instance_archives_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backups_instance_idx" ON "backups" USING btree ("instance_id","created_at");