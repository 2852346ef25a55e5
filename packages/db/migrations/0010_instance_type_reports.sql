ALTER TYPE "public"."operation_type" ADD VALUE 'benchmark_report';--> statement-breakpoint
CREATE TABLE "instance_type_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_type" text NOT NULL,
	"status" "benchmark_status" DEFAULT 'pending' NOT NULL,
	"suites" text[] NOT NULL,
	"instance_id" uuid,
	"operation_id" uuid,
	"engine_version" text,
	"peers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"environment" text,
	"headline" jsonb,
	"markdown" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "instance_type_reports" ADD CONSTRAINT "instance_type_reports_instance_type_instance_types_id_fk" FOREIGN KEY ("instance_type") REFERENCES "public"."instance_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_type_reports" ADD CONSTRAINT "instance_type_reports_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_type_reports" ADD CONSTRAINT "instance_type_reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instance_type_reports_type_idx" ON "instance_type_reports" USING btree ("instance_type","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "instance_type_reports_unfinished_uq" ON "instance_type_reports" USING btree ("instance_type") WHERE "instance_type_reports"."status" in ('pending', 'running');