package poweraction_test

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

func TestMain(m *testing.M) { acctest.Main(m) }
