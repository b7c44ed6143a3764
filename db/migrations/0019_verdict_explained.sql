ALTER TABLE "verifications" ADD COLUMN "verifier" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "deductions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "confidence_bps" integer DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_confidence_check" CHECK ("verifications"."confidence_bps" between 0 and 10000);
