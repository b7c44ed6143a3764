ALTER TABLE "deals" ADD COLUMN "funding_held_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "funding_attempts" uuid[] DEFAULT '{}'::uuid[] NOT NULL;
