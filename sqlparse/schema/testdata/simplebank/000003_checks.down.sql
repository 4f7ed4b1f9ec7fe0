ALTER TABLE "users" DROP CONSTRAINT "email_format";
