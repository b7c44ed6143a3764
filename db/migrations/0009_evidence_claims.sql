CREATE TABLE "evidence_claims" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"milestone_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"settled_at" timestamp with time zone,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evidence_claims_kind_key_pk" PRIMARY KEY("kind","key"),
	CONSTRAINT "evidence_claims_kind_check" CHECK ("evidence_claims"."kind" in ('url', 'content'))
);
--> statement-breakpoint
ALTER TABLE "evidence_claims" ADD CONSTRAINT "evidence_claims_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evidence_claims_milestone_idx" ON "evidence_claims" USING btree ("milestone_id");
