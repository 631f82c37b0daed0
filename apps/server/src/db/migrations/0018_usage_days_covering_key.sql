-- credit_usage_days' key carries its figures (decision 014, "Benchmark"): the chart's days and the forecast's
-- window of one organization are read from the index alone, in key order, instead of one heap page per day
-- (an organization's days are written over months, so they lie scattered in the heap). Sorting 400
-- sub-organizations by days left read half the pages.
ALTER TABLE credit_usage_days
  DROP CONSTRAINT credit_usage_days_organization_id_day_pk,
  ADD CONSTRAINT credit_usage_days_organization_id_day_pk PRIMARY KEY (organization_id, day)
    INCLUDE (received, handed_down, consumed);
