ALTER TABLE "deal_deposits" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "deal_deposits" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deal_deposits" DROP CONSTRAINT "deal_deposits_pkey";--> statement-breakpoint
ALTER TABLE "deal_deposits" ADD CONSTRAINT "deal_deposits_pkey" PRIMARY KEY ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "deal_deposits_current_key" ON "deal_deposits" USING btree ("deal_id") WHERE "deal_deposits"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "deal_deposits_deal_idx" ON "deal_deposits" USING btree ("deal_id");
