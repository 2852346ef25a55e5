ALTER TABLE "api_keys" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_parent_id_api_keys_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_parent_idx" ON "api_keys" USING btree ("parent_id");