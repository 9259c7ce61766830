# store: the single-writer queue, FIFO with one message group: SQS hands out the next batch only once the
# previous one is deleted, so at most one store invocation (or container worker) commits at a time, without
# relying on reserved concurrency and its throttled redeliveries. reflect: reflection requests (standard queue,
# a few in parallel). Each has a DLQ; a third DLQ receives scheduled runs that failed (schedules.tf).

locals {
  queue_consumers = toset(["store", "reflect"])

  # store: at least the function timeout (Lambda requires it); no more than a minute beyond it, since a crashed
  # invocation holds the whole message group for this long (one group: no throttling that would need 6x).
  # reflect: AWS's advice for standard queues, 6 x timeout + batching window, so throttled batches survive.
  visibility_timeout_s = {
    store   = var.timeout_s.store + 60
    reflect = min(43200, 6 * var.timeout_s.reflect + var.maximum_batching_window_s)
  }
}

resource "aws_sqs_queue" "dlq" {
  for_each = local.queue_consumers

  name                      = local.queue_names["${each.key}-dlq"]
  fifo_queue                = each.key == "store" ? true : null
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
  tags                      = local.tags
}

resource "aws_sqs_queue" "this" {
  for_each = local.queue_consumers

  name                       = local.queue_names[each.key]
  fifo_queue                 = each.key == "store" ? true : null
  visibility_timeout_seconds = local.visibility_timeout_s[each.key]
  message_retention_seconds  = var.message_retention_s
  receive_wait_time_seconds  = 20
  sqs_managed_sse_enabled    = true
  tags                       = local.tags

  # The writers send an explicit deduplication id; content-based deduplication covers anything else sent.
  content_based_deduplication = each.key == "store" ? true : null

  # Owned by aws_sqs_queue_redrive_policy.this below, which checks it for drift itself.
  lifecycle {
    ignore_changes = [redrive_policy]
  }
}

# A resource of its own rather than the queue's redrive_policy argument: it compares the policy as JSON (no
# drift when an API re-serialises it), and the queue and its DLQ are created in parallel.
resource "aws_sqs_queue_redrive_policy" "this" {
  for_each = local.queue_consumers

  queue_url = aws_sqs_queue.this[each.key].id
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq[each.key].arn
    maxReceiveCount     = var.max_receive_count
  })
}

# Scheduled runs that failed: events Scheduler could not deliver, and reflect / compact invocations that still
# failed after Lambda's asynchronous retries (their on-failure destination). Alarmed in monitoring.tf.
resource "aws_sqs_queue" "schedules_dlq" {
  name                      = local.queue_names["schedules-dlq"]
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
  tags                      = local.tags
}
