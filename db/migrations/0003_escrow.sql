ALTER TABLE "deals" DROP CONSTRAINT "deals_status_check";--> statement-breakpoint
ALTER TABLE "milestones" DROP CONSTRAINT "milestones_status_check";--> statement-breakpoint
ALTER TABLE "deals" ALTER COLUMN "status" SET DEFAULT 'unfunded';--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "deadline_at" timestamp with time zone DEFAULT now() + interval '30 days' NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "escrow_chain_id" integer;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "escrow_address" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "brand_wallet" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "funding_tx_hash" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "funded_block" bigint;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "funded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "creator_wallet" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "assign_tx_id" uuid;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "refund_tx_hash" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "refund_units" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "verdict_hash" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "source" text DEFAULT 'model' NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "record" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "record_hash" text;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_assign_tx_id_chain_transactions_id_fk" FOREIGN KEY ("assign_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_status_check" CHECK ("deals"."status" in ('unfunded', 'open', 'active', 'completed', 'cancelled', 'expired'));--> statement-breakpoint
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_status_check" CHECK ("milestones"."status" in ('pending', 'submitted', 'approved', 'paid', 'rejected', 'refunded'));--> statement-breakpoint
UPDATE "deals" SET "status" = 'unfunded' WHERE "status" = 'open';
