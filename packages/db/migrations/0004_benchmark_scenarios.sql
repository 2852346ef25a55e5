ALTER TYPE "public"."benchmark_status" ADD VALUE 'cancelled';--> statement-breakpoint
CREATE TABLE "benchmark_scenarios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"benchmark_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"tool" text NOT NULL,
	"command_line" text NOT NULL,
	"workload" text NOT NULL,
	"value_size" integer,
	"connections" integer NOT NULL,
	"pipeline" integer NOT NULL,
	"requests" bigint NOT NULL,
	"qps" real NOT NULL,
	"avg_latency_ms" real NOT NULL,
	"p50_latency_ms" real,
	"p99_latency_ms" real,
	"p999_latency_ms" real,
	"errors" bigint NOT NULL,
	"engine_version" text NOT NULL,
	"instance_type" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"report" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "benchmarks" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "benchmarks" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "benchmark_scenarios" ADD CONSTRAINT "benchmark_scenarios_benchmark_id_benchmarks_id_fk" FOREIGN KEY ("benchmark_id") REFERENCES "public"."benchmarks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "benchmark_scenarios_position_uq" ON "benchmark_scenarios" USING btree ("benchmark_id","position");