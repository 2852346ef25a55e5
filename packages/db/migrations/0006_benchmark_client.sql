ALTER TABLE "benchmarks" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "benchmarks" ADD COLUMN "client_namespace" text;