// The order wizard, loaded on demand so the home page stays small.
import { Route, Routes } from 'react-router';
import { GenderStep, PackageStep, RefinementStep, StyleStep } from './choice-steps.js';
import { OrderLayout } from './order-layout.js';
import { SummaryStepPage, UploadStepPage } from './order-steps.js';

export default function OrderRoutes() {
  return (
    <Routes>
      <Route element={<OrderLayout />}>
        <Route index element={<GenderStep />} />
        <Route path="gender" element={<GenderStep />} />
        <Route path="upload" element={<UploadStepPage />} />
        <Route path="style" element={<StyleStep />} />
        <Route path="package" element={<PackageStep />} />
        <Route path="refinement" element={<RefinementStep />} />
        <Route path="features" element={<SummaryStepPage />} />
        <Route path="summary" element={<SummaryStepPage />} />
      </Route>
    </Routes>
  );
}
