ALTER TABLE "creator_handles" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "creator_handles" ADD COLUMN "verification_code" text;--> statement-breakpoint
ALTER TABLE "creator_handles" ADD COLUMN "verification_expires_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX "creator_handles_platform_handle_key";--> statement-breakpoint
CREATE UNIQUE INDEX "creator_handles_verified_key" ON "creator_handles" USING btree ("platform","handle") WHERE "creator_handles"."verified_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "creator_handles_sandbox_key" ON "creator_handles" USING btree ("handle") WHERE "creator_handles"."platform" = 'sandbox';