# Periodic reflection and compaction, in a schedule group of their own so a tenant's schedules stay together.

locals {
  schedules = {
    reflect = { expression = var.reflect_schedule, input = { trigger = "periodic" } }
    compact = { expression = var.compact_schedule, input = { task = "compact" } }
  }
}

resource "aws_scheduler_schedule_group" "this" {
  name = local.name
  tags = local.tags
}

resource "aws_scheduler_schedule" "this" {
  for_each = local.schedules

  name                = "${local.name}-${each.key}"
  group_name          = aws_scheduler_schedule_group.this.name
  description         = "hindsight ${var.tenant_id}: periodic ${each.key}"
  schedule_expression = each.value.expression
  state               = var.schedules_enabled ? "ENABLED" : "DISABLED"

  flexible_time_window {
    mode                      = "FLEXIBLE"
    maximum_window_in_minutes = 15
  }

  target {
    arn      = aws_lambda_function.this[each.key].arn
    role_arn = aws_iam_role.scheduler.arn
    input    = jsonencode(each.value.input)

    # Both tasks are idempotent and the next run comes anyway: retry a little, not for a day.
    retry_policy {
      maximum_event_age_in_seconds = 3600
      maximum_retry_attempts       = 2
    }

    # An event Scheduler could not deliver is kept (and alarmed) rather than dropped.
    dead_letter_config {
      arn = aws_sqs_queue.schedules_dlq.arn
    }
  }
}
