DROP INDEX "benchmark_scenarios_position_uq";--> statement-breakpoint
ALTER TABLE "benchmark_scenarios" ADD COLUMN "server" text DEFAULT 'basalt' NOT NULL;--> statement-breakpoint
ALTER TABLE "benchmarks" ADD COLUMN "peer_address" text;--> statement-breakpoint
ALTER TABLE "benchmarks" ADD COLUMN "peer_namespace" text;--> statement-breakpoint
CREATE UNIQUE INDEX "benchmark_scenarios_position_uq" ON "benchmark_scenarios" USING btree ("benchmark_id","position","server");