CREATE TYPE "public"."address_kind" AS ENUM('node', 'primary_endpoint', 'readonly_endpoint');--> statement-breakpoint
CREATE TYPE "public"."instance_architecture" AS ENUM('standalone', 'standard');--> statement-breakpoint
ALTER TYPE "public"."operation_type" ADD VALUE 'failover';--> statement-breakpoint
CREATE TABLE "address_allocations" (
	"region" text NOT NULL,
	"address" text NOT NULL,
	"instance_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" "address_kind" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_allocations_region_address_pk" PRIMARY KEY("region","address")
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "architecture" "instance_architecture" DEFAULT 'standalone' NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "replicas" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "address_allocations" ADD CONSTRAINT "address_allocations_region_regions_id_fk" FOREIGN KEY ("region") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_allocations" ADD CONSTRAINT "address_allocations_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "address_allocations_instance_name_uq" ON "address_allocations" USING btree ("instance_id","name");--> statement-breakpoint
-- Node addresses move from instances.nodes to address_allocations (hand-written, issue 15).
INSERT INTO "address_allocations" ("region", "address", "instance_id", "name", "kind")
SELECT i."region", coalesce(n->>'allocated_ip', n->>'private_ip'), i."id", n->>'name', 'node'
FROM "instances" i
CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(i."nodes") = 'array' THEN i."nodes" ELSE '[]'::jsonb END) AS n
WHERE i."status" <> 'deleted' AND n ? 'name' AND coalesce(n->>'allocated_ip', n->>'private_ip') IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Every node of the one-node instances so far is their primary; every endpoint the primary's.
UPDATE "instances" SET "nodes" = (
  SELECT coalesce(jsonb_agg('{"role":"primary","status":"running","lag_bytes":null}'::jsonb || n ORDER BY ord), '[]'::jsonb)
  FROM jsonb_array_elements("nodes") WITH ORDINALITY AS e(n, ord)
) WHERE jsonb_typeof("nodes") = 'array';--> statement-breakpoint
UPDATE "instances" SET "endpoints" = (
  SELECT coalesce(jsonb_agg('{"role":"primary"}'::jsonb || p ORDER BY ord), '[]'::jsonb)
  FROM jsonb_array_elements("endpoints") WITH ORDINALITY AS e(p, ord)
) WHERE jsonb_typeof("endpoints") = 'array';
