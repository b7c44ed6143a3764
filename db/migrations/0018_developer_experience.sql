ALTER TABLE "api_keys" ADD COLUMN "api_version" text DEFAULT '2026-06-01' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "api_version" SET DEFAULT '2026-11-24';--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "deals_metadata_idx" ON "deals" USING gin ("metadata" jsonb_path_ops);--> statement-breakpoint
ALTER TABLE "deal_events" ADD COLUMN "object_type" text;--> statement-breakpoint
ALTER TABLE "deal_events" ADD COLUMN "object" jsonb;--> statement-breakpoint
ALTER TABLE "deal_events" ADD COLUMN "previous_attributes" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "test_event" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "request_body" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "response_headers" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "response_body" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check" CHECK (("webhook_deliveries"."event_id" is null) <> ("webhook_deliveries"."test_event" is null));
