ALTER TABLE "deals" ADD COLUMN "parent_deal_id" uuid;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "bonus_message" text;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_parent_deal_id_deals_id_fk" FOREIGN KEY ("parent_deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deals_parent_idx" ON "deals" USING btree ("parent_deal_id","created_at") WHERE "deals"."parent_deal_id" is not null;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_bonus_check" CHECK (("deals"."parent_deal_id" is null) = ("deals"."bonus_message" is null));