-- The disclosure rule is on for new deals only. A deal made before it keeps the terms its brand (and, once taken, its creator) agreed to: off, with that reason on the deal, never silently.
ALTER TABLE "deals" ADD COLUMN "disclosure_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "disclosure_off_reason" text;--> statement-breakpoint
UPDATE "deals" SET "disclosure_off_reason" = 'Made before Milestone checked disclosure, so the deal keeps the terms it was made with. Paid posts should still carry #ad or the platform''s paid-partnership label (FTC).';--> statement-breakpoint
ALTER TABLE "deals" ALTER COLUMN "disclosure_required" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "paid_partnership" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_posts" ADD COLUMN "paid_partnership" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_disclosure_check" CHECK ("deals"."disclosure_required" or "deals"."disclosure_off_reason" is not null);
