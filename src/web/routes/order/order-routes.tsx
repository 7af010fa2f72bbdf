// The order wizard, loaded on demand so the home page stays small.
import { Route, Routes } from 'react-router';
import { GenderStep, PackageStep, RefinementStep, StyleStep } from './choice-steps.js';
import { OrderLayout } from './order-layout.js';
import { SummaryStep } from './summary-step.js';
import { UploadStep } from './upload-step.js';

export default function OrderRoutes() {
  return (
    <Routes>
      <Route element={<OrderLayout />}>
        <Route index element={<GenderStep />} />
        <Route path="gender" element={<GenderStep />} />
        <Route path="upload" element={<UploadStep />} />
        <Route path="style" element={<StyleStep />} />
        <Route path="package" element={<PackageStep />} />
        <Route path="refinement" element={<RefinementStep />} />
        <Route path="features" element={<SummaryStep />} />
        <Route path="summary" element={<SummaryStep />} />
      </Route>
    </Routes>
  );
}
