-- The customer's favourites among their published pictures: when they marked one (null: not a favourite).
-- Shown to the customer and to staff.
ALTER TABLE "generated_images" ADD COLUMN "favourite_at" timestamp with time zone;
