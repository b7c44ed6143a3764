CREATE TABLE "sign_in_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"browser_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_links_expires_idx" ON "sign_in_links" USING btree ("expires_at");--> statement-breakpoint
CREATE TABLE "sign_in_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"browser_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_nonces_expires_idx" ON "sign_in_nonces" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "user_id" DROP NOT NULL;
