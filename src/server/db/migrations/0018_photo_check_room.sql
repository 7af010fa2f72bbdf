-- Whether an order takes one more photo for a worker's check, decided under the order's row lock in one round
-- trip: an upload in a rush records its check with one statement (this function, then the inserts that depend
-- on its answer) instead of a transaction of four (BEGIN, the lock, the insert, COMMIT). The photos are
-- counted after the lock is held, by a statement of their own: a function that is not STABLE takes a new
-- snapshot for each statement, so it sees the photo that the holder of the lock before it committed.
-- The rule "editable" is the one of isEditable() in src/server/modules/orders/order-context.ts.
CREATE FUNCTION photo_check_room(p_order uuid, p_max integer) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  o record;
  taken integer;
BEGIN
  SELECT status, payment_status, provider_session_id INTO o FROM orders WHERE id = p_order FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 'orderNotFound';
  END IF;
  IF o.status <> 'created' OR o.payment_status IN ('paid', 'refunded') THEN
    RETURN 'orderLocked';
  END IF;
  IF o.provider_session_id IS NOT NULL THEN
    RETURN 'checkoutOpen';
  END IF;
  SELECT (SELECT count(*) FROM order_uploads WHERE order_id = p_order)
       + (SELECT count(*) FROM photo_checks WHERE order_id = p_order AND status = 'checking')
    INTO taken;
  IF taken >= p_max THEN
    RETURN 'tooManyPhotos';
  END IF;
  RETURN 'room';
END
$$;
