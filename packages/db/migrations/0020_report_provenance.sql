CREATE TYPE "public"."report_origin" AS ENUM('local', 'published');--> statement-breakpoint
ALTER TABLE "instance_type_reports" ADD COLUMN "origin" "report_origin" DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE "instance_type_reports" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "instance_type_reports" ADD COLUMN "source_commit" text;--> statement-breakpoint
ALTER TABLE "instance_type_reports" ADD COLUMN "document" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "instance_type_reports_published_uq" ON "instance_type_reports" USING btree ("instance_type","started_at") WHERE "instance_type_reports"."origin" = 'published';